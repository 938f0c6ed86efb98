/** The dev QA set's answerable questions and hit@5, scored the same way for every engine. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseQaSet, type QaItem } from "../eval-qa-set.ts";

export const evalDir = resolve(import.meta.dirname, "../../../shared/eval");

/** Questions with an expected page (follow-ups included, asked without their conversation). */
const qaFile = join(evalDir, "qa-debian-docs.jsonl");
export const answerable: QaItem[] = parseQaSet(readFileSync(qaFile, "utf8"), qaFile).filter(
  (item) => item.type === "answerable",
);

export interface Origin {
  fileName: string;
  pages: readonly number[];
}

/** Fraction of questions whose expected page of the expected file is among the pages of their top 5 results. */
export function hitAt5(
  resultIds: readonly (readonly string[])[],
  origins: ReadonlyMap<string, Origin>,
): number {
  const hits = answerable.filter((item, index) =>
    (resultIds[index] ?? []).slice(0, 5).some((id) => {
      const origin = origins.get(id);
      return origin?.fileName === item.doc && origin.pages.some((page) => item.pages.includes(page));
    }),
  );
  return hits.length / answerable.length;
}
