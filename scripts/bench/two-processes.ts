/** Two service processes on one PostgreSQL: rag throughput with requests spread over both, beside one process alone. */

import { attach, type BenchService, rag, startService } from "./bench-service.ts";
import { answerable } from "./qa.ts";
import { label, type ServiceGrowth, serviceGrowthMiB } from "./scale.ts";
import { postgresAt, type SeedPassage, writeSyntheticCorpus } from "./synthetic-corpus.ts";
import { type BenchRow, benchRow, median } from "./table.ts";

export interface ScaleOutContext {
  databaseUrl: string;
  seed: readonly SeedPassage[];
  count: number;
  rounds: number;
  requests: number;
  /** Also reads the first service's memory after this long idle (0: not). */
  idleSeconds: number;
}

export interface ScaleOutResult {
  rows: BenchRow[];
  /** RSS growth of one service on PostgreSQL for `count` passages. */
  serviceGrowth: ServiceGrowth;
}

const clients = 4;

/** Requests per second of `clients` concurrent loops, each request sent to the next service in turn. */
async function throughput(services: readonly BenchService[], requests: number): Promise<number> {
  let sent = 0;
  const started = performance.now();
  const loop = async () => {
    for (let index = sent++; index < requests; index = sent++) {
      await rag(services[index % services.length]!, answerable[index % answerable.length]!.question);
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  return requests / ((performance.now() - started) / 1000);
}

export async function twoProcessRag(context: ScaleOutContext): Promise<ScaleOutResult> {
  const { assistantId } = await writeSyntheticCorpus(
    postgresAt(context.databaseUrl),
    context.seed,
    context.count,
  );
  const env = { CKA_LOG: "info" };
  const first = await startService({ databaseUrl: context.databaseUrl, env });
  try {
    const one = await attach(first, assistantId);
    const growth = await serviceGrowthMiB(one, context.idleSeconds);
    const second = await startService({ databaseUrl: context.databaseUrl, env });
    try {
      const other = await attach(second, assistantId);
      await rag(other, "warm up");
      const single: number[] = [];
      const pair: number[] = [];
      for (let round = 0; round < context.rounds; round += 1) {
        single.push(await throughput([one], context.requests));
        pair.push(await throughput([one, other], context.requests));
      }
      const rows = [
        benchRow(
          "scale-out",
          `rag throughput, ${label(context.count)}, 2 processes on PostgreSQL, ${clients} clients`,
          "req/s",
          median(pair),
          "1 process",
          median(single),
        ),
      ];
      return { rows, serviceGrowth: growth };
    } finally {
      await second.stop();
    }
  } finally {
    await first.stop();
  }
}
