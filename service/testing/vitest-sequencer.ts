/**
 * Vitest's order, with the files that take a minute or more first. Vitest runs the longest files first
 * by the timings of an earlier run, but a fresh checkout (CI) has none and it falls back to the largest
 * files: one of these then started 107 s in and ran on alone at the end.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

const longFiles = [
  "service/ingest/ingestion-faults.int.test.ts",
  "service/ingest/ingestion-crash.int.test.ts",
  "service/cli/cka.int.test.ts",
];

const rank = (spec: TestSpecification): number => {
  const index = longFiles.findIndex((file) => spec.moduleId.endsWith(file));
  return index === -1 ? longFiles.length : index;
};

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array sort is stable: the other files keep Vitest's order.
    return sorted.sort((first, second) => rank(first) - rank(second));
  }
}
