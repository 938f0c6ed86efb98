/**
 * `ask` over HTTP: time to the first NDJSON line beside a bare `GET /healthz` round trip (the transport
 * floor), and time to the end of the answer beside `rag` for the same question (the retrieval inside it).
 */
import { ask, type BenchService, rag } from "./bench-service.ts";
import { answerable } from "./qa.ts";
import { type BenchRow, benchRow, roundsPercentile } from "./table.ts";

export async function askRows(
  bench: BenchService,
  label: string,
  options: { rounds: number; samples: number },
): Promise<BenchRow[]> {
  const question = (index: number) => answerable[index % answerable.length]!.question;
  const firstLine: number[][] = [];
  const done: number[][] = [];
  const health: number[][] = [];
  const retrieval: number[][] = [];
  const timed = async (call: () => Promise<unknown>) => {
    const started = performance.now();
    await call();
    return performance.now() - started;
  };
  for (let round = 0; round < options.rounds; round += 1) {
    const asks = { first: [] as number[], done: [] as number[] };
    for (let index = 0; index < options.samples; index += 1) {
      const timing = await ask(bench, question(index));
      asks.first.push(timing.firstLineMs);
      asks.done.push(timing.doneMs);
    }
    const healthSamples: number[] = [];
    const ragSamples: number[] = [];
    for (let index = 0; index < options.samples; index += 1) {
      healthSamples.push(
        await timed(() => fetch(`${bench.service.url}/healthz`).then((response) => response.arrayBuffer())),
      );
      ragSamples.push(await timed(() => rag(bench, question(index))));
    }
    firstLine.push(asks.first);
    done.push(asks.done);
    health.push(healthSamples);
    retrieval.push(ragSamples);
  }
  return [0.5, 0.99].flatMap((fraction) => {
    const name = fraction === 0.5 ? "p50" : "p99";
    return [
      benchRow(
        "ask",
        `${label} first line ${name}`,
        "ms",
        roundsPercentile(firstLine, fraction),
        "GET /healthz",
        roundsPercentile(health, fraction),
      ),
      benchRow(
        "ask",
        `${label} done ${name}`,
        "ms",
        roundsPercentile(done, fraction),
        "rag, same question",
        roundsPercentile(retrieval, fraction),
      ),
    ];
  });
}
