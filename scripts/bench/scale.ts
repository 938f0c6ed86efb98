/**
 * One corpus size: our service (PGlite) over HTTP against MiniSearch, Orama and PostgreSQL FTS on the same
 * passages; ask at that size; and the memory each holds for the passages.
 */
import { temporaryDirectory } from "../../service/testing/temporary-directory.ts";
import { askRows } from "./ask.ts";
import { attach, type BenchService, rag, startService } from "./bench-service.ts";
import { createMiniSearch, createOrama, heapInUse, type PeerEngine } from "./peers.ts";
import { createPostgresFts } from "./postgres-fts.ts";
import type { Origin } from "./qa.ts";
import { compareRetrieval } from "./retrieval.ts";
import { rssMiB, settledRssMiB } from "./service-memory.ts";
import { pgliteOf, type SeedPassage, writeSyntheticCorpus } from "./synthetic-corpus.ts";
import type { BenchRow } from "./table.ts";

export interface ScaleResult {
  rows: BenchRow[];
  count: number;
  /** Growth in MiB of each holder of the passages: our service, and each in-process peer's heap. */
  memoryMiB: Map<string, number>;
}

const mib = (bytes: number) => bytes / 1024 / 1024;

/** The name under which a holder's memory after `idleSeconds` of quiet is reported. */
export const idleHolder = (holder: string, idleSeconds: number) => `${holder} after ${idleSeconds} s idle`;

export const label = (count: number) => `${count >= 1000 ? `${count / 1000}k` : count} passages`;

export interface ServiceGrowth {
  /** MiB of RSS growth one second after the index is loaded and saved. */
  loaded: number;
  /** The growth once the process has idled `idleSeconds` after loading, or null when not asked for. */
  idle: number | null;
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * RSS of the service before and after it loads `assistantId`'s index, a small assistant answering first.
 * V8 gives the memory a load used and no longer needs back to the system only after the process has been
 * quiet for a while (about 100 s here), so with `idleSeconds` the service idles that long both before the
 * load and after it, and the difference of those two readings is the steady-state growth.
 */
export async function serviceGrowthMiB(bench: BenchService, idleSeconds = 0): Promise<ServiceGrowth> {
  const empty = await attach(bench.service);
  await rag(empty, "warm up");
  await sleep(Math.max(1, idleSeconds));
  const before = rssMiB(bench.service.process.pid!);
  await rag(bench, "warm up");
  const loaded = (await settledRssMiB(bench.service, bench.assistantId)) - before;
  if (idleSeconds === 0) return { loaded, idle: null };
  await sleep(idleSeconds);
  return { loaded, idle: rssMiB(bench.service.process.pid!) - before };
}

export async function scaleSection(options: {
  seed: readonly SeedPassage[];
  count: number;
  databaseUrl: string;
  rounds: number;
  passes: number;
  askSamples: number;
  /** Also reads the service's memory after this long idle (0: not). */
  idleSeconds: number;
}): Promise<ScaleResult> {
  const dataDir = temporaryDirectory("cka-bench-scale-");
  const { assistantId, passages } = await writeSyntheticCorpus(
    pgliteOf(dataDir),
    options.seed,
    options.count,
  );
  const origins = new Map<string, Origin>(passages.map((passage) => [passage.id, passage]));
  const memoryMiB = new Map<string, number>();
  const service = await startService({ dataDir, env: { CKA_LOG: "info" } });
  try {
    const bench = await attach(service, assistantId);
    const growth = await serviceGrowthMiB(bench, options.idleSeconds);
    memoryMiB.set("service (PGlite)", growth.loaded);
    if (growth.idle !== null) memoryMiB.set(idleHolder("service (PGlite)", options.idleSeconds), growth.idle);
    const peers: PeerEngine[] = [];
    for (const create of [createMiniSearch, createOrama]) {
      const before = heapInUse();
      const peer = await create(passages);
      memoryMiB.set(peer.name, mib(heapInUse() - before));
      peers.push(peer);
    }
    const postgres = await createPostgresFts(options.databaseUrl, passages);
    try {
      const ours = { name: "ours (HTTP)", search: (query: string) => rag(bench, query) };
      const rows = await compareRetrieval(label(options.count), ours, [...peers, postgres], origins, options);
      rows.push(
        ...(await askRows(bench, label(options.count), {
          rounds: options.rounds,
          samples: options.askSamples,
        })),
      );
      return { rows, count: options.count, memoryMiB };
    } finally {
      await postgres.close();
    }
  } finally {
    await service.stop();
  }
}
