/**
 * What a reliability suite did, counted: requests by outcome class, faults injected, data checked.
 * Each suite writes its tally to test-results/reliability/ so `npm run test:reliability` can print
 * one summary for the whole run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const tallyFolder = resolve(import.meta.dirname, "../../test-results/reliability");

export interface Tally {
  /** Responses by class: "2xx", "4xx", "5xx", "hang", "no response", "malformed stream line". */
  requests: Record<string, number>;
  /** Faults injected, by kind (e.g. "SIGKILL during ingestion"). */
  faults: Record<string, number>;
  /** Data checked after the faults, by kind (e.g. "documents ready"). */
  checked: Record<string, number>;
  /** Latency figures, by label, in milliseconds. */
  latency: Record<string, { p50: number; p99: number; count: number }>;
}

export function createTally(): Tally {
  return { requests: {}, faults: {}, checked: {}, latency: {} };
}

export function count(bucket: Record<string, number>, key: string, by = 1): void {
  bucket[key] = (bucket[key] ?? 0) + by;
}

export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export function writeTally(suite: string, tally: Tally): void {
  mkdirSync(tallyFolder, { recursive: true });
  writeFileSync(join(tallyFolder, `${suite}.json`), `${JSON.stringify({ suite, ...tally }, null, 2)}\n`);
}
