/** The model folder tests load: the one `npm run fetch-model` verified into the repository's model cache. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cacheFolderName } from "../minilm.ts";

export const repositoryModelCache = join(import.meta.dirname, "..", "..", "..", ".cache", "models");

export function testModelFolder(): string {
  const folder = process.env.CKA_EMBEDDING_MODEL_DIR ?? join(repositoryModelCache, cacheFolderName);
  if (!existsSync(join(folder, "model.safetensors")))
    throw new Error(`no embedding model in ${folder}: run \`npm run fetch-model\` first`);
  return folder;
}
