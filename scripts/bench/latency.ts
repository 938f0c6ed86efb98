/** Latency sampling over HTTP: run a request many times, report p50/p95/p99 in milliseconds. */
import { percentile } from "../eval-scoring.ts";

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  count: number;
}

export async function measure(
  count: number,
  request: (index: number) => Promise<unknown>,
): Promise<LatencySummary> {
  const samples: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    await request(index);
    samples.push(performance.now() - started);
  }
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    p50: round(percentile(samples, 0.5)),
    p95: round(percentile(samples, 0.95)),
    p99: round(percentile(samples, 0.99)),
    count,
  };
}

export function formatLatency(label: string, summary: LatencySummary): string {
  return `${label.padEnd(44)} p50 ${summary.p50.toFixed(2)} ms  p95 ${summary.p95.toFixed(2)} ms  p99 ${summary.p99.toFixed(2)} ms  (n=${summary.count})`;
}
