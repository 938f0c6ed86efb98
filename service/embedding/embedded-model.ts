/**
 * all-MiniLM-L6-v2 in process: tokenized in JS, run by onnxruntime on the committed graph with the
 * verified weights. Runs are queued one at a time (the model already uses every core it is given),
 * and a question's run goes ahead of waiting passage batches so an answer never waits for indexing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { embeddedModelId, graphPath, minilm } from "./minilm.ts";
import type { EmbedPriority, PriorityEmbedder } from "./text-embedder.ts";

export interface EmbeddedModel extends PriorityEmbedder {
  close(): Promise<void>;
}

/** Tokens per run: batches of short texts are wider, so every run costs about the same. */
const tokensPerRun = 4096;
const separatorId = 102;

interface Job {
  run: () => Promise<void>;
}

export async function loadEmbeddedModel(
  folder: string,
  options: { threads?: number } = {},
): Promise<EmbeddedModel> {
  // Loaded here, not at import: a service without the model never loads onnxruntime's native library.
  const [{ Tokenizer }, ort] = await Promise.all([
    import("@huggingface/tokenizers"),
    import("onnxruntime-node"),
  ]);
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(folder, "tokenizer.json"), "utf8")), {});
  const session = await ort.InferenceSession.create(readFileSync(graphPath), {
    intraOpNumThreads: options.threads ?? 0,
    interOpNumThreads: 1,
    graphOptimizationLevel: "all",
    extra: { session: { model_external_initializers_file_folder_path: folder } },
  });
  const queues: Record<EmbedPriority, Job[]> = { question: [], passages: [] };
  let running = false;
  let closed = false;

  function pump(): void {
    if (running) return;
    const job = queues.question.shift() ?? queues.passages.shift();
    if (!job) return;
    running = true;
    void job.run().finally(() => {
      running = false;
      pump();
    });
  }

  function schedule<T>(priority: EmbedPriority, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queues[priority].push({ run: () => work().then(resolve, reject) });
      pump();
    });
  }

  function tokenize(text: string): number[] {
    const ids = tokenizer.encode(text).ids;
    return ids.length <= minilm.maxTokens ? ids : [...ids.slice(0, minilm.maxTokens - 1), separatorId];
  }

  async function runBatch(batch: readonly number[][]): Promise<Float32Array[]> {
    const width = Math.max(...batch.map((ids) => ids.length));
    const size = batch.length * width;
    const inputIds = new BigInt64Array(size);
    const mask = new BigInt64Array(size);
    batch.forEach((ids, row) => {
      ids.forEach((id, column) => {
        inputIds[row * width + column] = BigInt(id);
        mask[row * width + column] = 1n;
      });
    });
    const shape = [batch.length, width];
    const output = await session.run({
      input_ids: new ort.Tensor("int64", inputIds, shape),
      attention_mask: new ort.Tensor("int64", mask, shape),
      token_type_ids: new ort.Tensor("int64", new BigInt64Array(size), shape),
    });
    const tensor = output.sentence_embedding;
    if (!tensor) throw new Error("the model gave no sentence_embedding");
    const data = tensor.data as Float32Array;
    return batch.map((_, row) => data.slice(row * minilm.dimensions, (row + 1) * minilm.dimensions));
  }

  return {
    modelId: embeddedModelId(),
    dimensions: minilm.dimensions,
    async embed(texts, signal, priority = "passages") {
      if (closed) throw new Error("the embedding model is closed");
      const tokenized = texts.map(tokenize);
      // Texts of similar length run together, so little of a batch is padding.
      const order = tokenized
        .map((_, index) => index)
        .sort((a, b) => tokenized[a]!.length - tokenized[b]!.length);
      const vectors: Float32Array[] = new Array(texts.length);
      let start = 0;
      while (start < order.length) {
        signal?.throwIfAborted();
        let end = start + 1;
        while (end < order.length && (end - start + 1) * tokenized[order[end]!]!.length <= tokensPerRun)
          end += 1;
        const indexes = order.slice(start, end);
        const batch = indexes.map((index) => tokenized[index]!);
        const results = await schedule(priority, () => runBatch(batch));
        indexes.forEach((index, position) => {
          vectors[index] = results[position]!;
        });
        start = end;
      }
      return vectors;
    },
    async close() {
      closed = true;
      await session.release();
    },
  };
}
