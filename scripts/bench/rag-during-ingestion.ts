/**
 * `rag` while the service ingests: the same questions timed while a corpus is ingested into another
 * assistant of the same service, and on the idle service. The main thread also stores, indexes and
 * snapshots what the workers read; how long it holds the event loop shows here as the tail.
 */
import { attach, type BenchService, ingest, rag } from "./bench-service.ts";
import { answerable } from "./qa.ts";

/** Between two requests, as a person reading results would pause; also lets ingestion proceed. */
const pauseMs = 20;

export interface RagDuringIngestion {
  during: number[];
  idle: number[];
}

export async function ragDuringIngestion(
  bench: BenchService,
  paths: string[],
  idleSamples: number,
): Promise<RagDuringIngestion> {
  const question = (index: number) => answerable[index % answerable.length]!.question;
  const timedRag = async (index: number): Promise<number> => {
    const started = performance.now();
    await rag(bench, question(index));
    return performance.now() - started;
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, pauseMs));
  const idle: number[] = [];
  for (let index = 0; index < idleSamples; index += 1) {
    idle.push(await timedRag(index));
    await pause();
  }
  const other = await attach(bench.service);
  try {
    let ingesting = true;
    const ingestion = ingest(other, paths).finally(() => {
      ingesting = false;
    });
    const during: number[] = [];
    for (let index = 0; ingesting; index += 1) {
      during.push(await timedRag(index));
      await pause();
    }
    await ingestion;
    return { during, idle };
  } finally {
    await other.admin.deleteAssistant(other.assistantId);
  }
}
