/** Retrieval latency and hit@5 of several engines over the same questions, timed in interleaved rounds. */

import { answerable, hitAt5, type Origin } from "./qa.ts";
import type { BenchRow } from "./table.ts";
import { benchRow, roundsPercentile } from "./table.ts";

export interface RetrievalEngine {
  name: string;
  search(query: string): Promise<string[]>;
}

interface Measured {
  rounds: number[][];
  hit5: number;
}

/**
 * Every engine first answers each question once, untimed, for hit@5 (this also warms it up); then each
 * round asks every engine every question `passes` times, engine after engine, so that a slow minute of a
 * shared machine falls on all of them.
 */
export async function compareRetrieval(
  label: string,
  ours: RetrievalEngine,
  peers: readonly RetrievalEngine[],
  origins: ReadonlyMap<string, Origin>,
  options: { rounds: number; passes: number },
): Promise<BenchRow[]> {
  const engines = [ours, ...peers];
  const measured = new Map<RetrievalEngine, Measured>();
  for (const engine of engines) {
    const results: string[][] = [];
    for (const item of answerable) results.push(await engine.search(item.question));
    measured.set(engine, { rounds: [], hit5: hitAt5(results, origins) });
  }
  for (let round = 0; round < options.rounds; round += 1) {
    for (const engine of engines) {
      const samples: number[] = [];
      for (let pass = 0; pass < options.passes; pass += 1) {
        for (const item of answerable) {
          const started = performance.now();
          await engine.search(item.question);
          samples.push(performance.now() - started);
        }
      }
      measured.get(engine)!.rounds.push(samples);
    }
  }
  const ourFigures = measured.get(ours)!;
  return peers.flatMap((peer) => {
    const theirs = measured.get(peer)!;
    const latency = (name: string, fraction: number) =>
      benchRow(
        "retrieval",
        `${label} ${name}`,
        "ms",
        roundsPercentile(ourFigures.rounds, fraction),
        peer.name,
        roundsPercentile(theirs.rounds, fraction),
      );
    return [
      latency("p50", 0.5),
      latency("p99", 0.99),
      benchRow("retrieval", `${label} hit@5`, "share", ourFigures.hit5, peer.name, theirs.hit5),
    ];
  });
}
