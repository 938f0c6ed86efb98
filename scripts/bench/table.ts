/** A benchmark figure beside its floor or peer, and the single table the run prints. */
import { percentile } from "../eval-scoring.ts";

export interface BenchRow {
  section: string;
  figure: string;
  ours: number;
  floor: number | null;
  floorName: string;
  unit: string;
  /** ours / floor; null when there is no floor to divide by. */
  ratio: number | null;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export function benchRow(
  section: string,
  figure: string,
  unit: string,
  ours: number,
  floorName: string,
  floor: number | null,
): BenchRow {
  const ratio = floor === null || floor === 0 ? null : round(ours / floor, 3);
  return {
    section,
    figure,
    ours: round(ours, 3),
    floor: floor === null ? null : round(floor, 3),
    floorName,
    unit,
    ratio,
  };
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

/** Percentiles of samples taken in several interleaved rounds: each round's percentile, then their median. */
export function roundsPercentile(rounds: readonly (readonly number[])[], fraction: number): number {
  return median(rounds.map((samples) => percentile(samples, fraction)));
}

const shown = (value: number | null): string => {
  if (value === null) return "—";
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(value === Math.round(value) ? 0 : 3);
};

export function formatTable(rows: readonly BenchRow[]): string {
  const cells = rows.map((row) => [
    row.section,
    row.figure,
    shown(row.ours),
    shown(row.floor),
    row.floorName,
    row.unit,
    row.ratio === null ? "—" : `${row.ratio.toFixed(2)}×`,
  ]);
  const header = ["section", "figure", "ours", "floor/peer", "floor/peer is", "unit", "ours/floor"];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]!.length)),
  );
  const numeric = new Set([2, 3, 6]);
  const line = (values: readonly string[]) =>
    values
      .map((value, column) =>
        numeric.has(column) ? value.padStart(widths[column]!) : value.padEnd(widths[column]!),
      )
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...cells.map(line)].join("\n");
}
