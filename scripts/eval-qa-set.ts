/** An eval's question set: one JSON object a line (docs/eval.md), read and checked with the line of each fault. */
import { z } from "zod";

export const qaItemSchema = z
  .looseObject({
    id: z.string().min(1),
    type: z.enum(["answerable", "unanswerable"]),
    question: z.string().trim().min(1),
    /** File name of the source that answers it; null when unanswerable. */
    doc: z.string().min(1).nullable(),
    /** 1-based physical pages of a PDF; empty for other files, where any passage of `doc` counts. */
    pages: z.array(z.int().min(1)).default([]),
    answer_contains: z.array(z.string().min(1)).default([]),
    note: z.string().optional(),
    follow_up_of: z.string().min(1).optional(),
  })
  .superRefine((item, context) => {
    if (item.type === "answerable" && (item.doc === null || item.answer_contains.length === 0))
      context.addIssue({ code: "custom", message: "an answerable item needs a doc and answer_contains" });
    if (item.type === "unanswerable" && item.doc !== null)
      context.addIssue({ code: "custom", message: "an unanswerable item has doc null" });
  });

export type QaItem = z.infer<typeof qaItemSchema>;

const issuesOf = (error: z.ZodError) =>
  error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");

/** The items of a JSONL question set; `source` names it in errors, which give the line (1-based). */
export function parseQaSet(text: string, source: string): QaItem[] {
  const items: QaItem[] = [];
  const lineOfId = new Map<string, number>();
  for (const [index, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    const where = `${source} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new Error(`${where} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const parsed = qaItemSchema.safeParse(value);
    if (!parsed.success) throw new Error(`${where}: ${issuesOf(parsed.error)}`);
    const item = parsed.data;
    const earlier = lineOfId.get(item.id);
    if (earlier !== undefined) throw new Error(`${where}: id "${item.id}" is already on line ${earlier}`);
    if (item.follow_up_of !== undefined && !lineOfId.has(item.follow_up_of))
      throw new Error(`${where}: follow_up_of "${item.follow_up_of}" is not the id of an earlier line`);
    lineOfId.set(item.id, index + 1);
    items.push(item);
  }
  if (items.length === 0) throw new Error(`${source} holds no questions`);
  return items;
}

/** The docs the items name that are not among the source files, as an error message; null when all are there. */
export function missingDocs(
  items: readonly QaItem[],
  fileNames: readonly string[],
  sources: string,
): string | null {
  const present = new Set(fileNames);
  const missing = [
    ...new Set(items.flatMap((item) => (item.doc && !present.has(item.doc) ? [item.doc] : []))),
  ];
  if (missing.length === 0) return null;
  return `no file named ${missing.map((name) => `"${name}"`).join(", ")} under ${sources}, which the questions cite`;
}
