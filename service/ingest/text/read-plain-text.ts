/** Reads plain text: paragraphs split on blank lines, simple headings (short lines, underlines) and bullet lists. */
import type { TextSourceBlock } from "../types.ts";
import { decodeSourceText } from "./decode-text.ts";
import { HeadingStack } from "./heading-stack.ts";
import { collapse, listBlocks, paragraphBlocks, proseEvidence } from "./text-blocks.ts";
import type { TextReader } from "./text-reader.ts";
import { httpUrl } from "./urls.ts";

const BULLET = /^[ \t]*([-*•·◦‣▪–]|\d{1,3}[.)]|[a-z][.)])[ \t]+/u;
const UNDERLINE = /^[ \t]*(=|-|~|\*|\^|#)\1{2,}[ \t]*$/u;
const MAX_HEADING_WORDS = 10;
const MAX_HEADING_CHARS = 80;

interface Heading {
  level: number;
  text: string;
}

/**
 * Reads a plain-text file. A heading is an underlined line (`====` level 1, `----` level 2, others 3),
 * or a short line without final punctuation standing alone before a paragraph: numbered "2" level 2,
 * "2.1" level 3; ALL CAPS level 2; otherwise level 3, so they all nest under an underlined title.
 * The title is the first line when it is such a heading.
 */
export const readPlainText: TextReader = (_fileName, bytes, context) => {
  const { text, warnings } = decodeSourceText(bytes);
  const groups = text
    .replace(/[\f\v]/gu, "\n")
    .split(/\n[ \t]*(?:\n[ \t]*)+/u)
    .map((group) => group.split("\n").filter((line) => line.trim() !== ""))
    .filter((group) => group.length > 0);
  const evidence = proseEvidence(httpUrl(context.datasourceUrl));
  const headings = new HeadingStack();
  const blocks: TextSourceBlock[] = [];
  let title: string | null = null;
  groups.forEach((group, index) => {
    const underlined = underlinedHeading(group);
    const heading =
      underlined?.heading ??
      (standaloneHeading(group, groups[index + 1]) ? lineHeading(group[0] ?? "") : null);
    let lines = group;
    if (heading) {
      headings.enter(heading.level, heading.text);
      if (index === 0) title = heading.text;
      lines = underlined ? group.slice(underlined.consumed) : [];
    }
    if (lines.length === 0) return;
    if (
      lines.every((line) => BULLET.test(line) || /^[ \t]{2,}\S/u.test(line)) &&
      BULLET.test(lines[0] ?? "")
    ) {
      blocks.push(...listBlocks(headings.path, listItems(lines), evidence));
    } else {
      blocks.push(...paragraphBlocks(headings.path, lines.join(" "), evidence));
    }
  });
  return { title, blocks, warnings };
};

/** "Title\n=====" or "=====\nTitle\n=====" at the start of a group. */
function underlinedHeading(group: string[]): { heading: Heading; consumed: number } | null {
  const [first = "", second = "", third = ""] = group;
  const overlined = UNDERLINE.test(first) && UNDERLINE.test(third) && second.trim() !== "";
  const text = overlined ? second : first;
  const rule = overlined ? third : second;
  if (!UNDERLINE.test(rule) || UNDERLINE.test(text) || rule.trim().length < collapse(text).length / 2)
    return null;
  const marker = rule.trim().charAt(0);
  const level = overlined ? 1 : marker === "=" ? 1 : marker === "-" ? 2 : 3;
  return { heading: { level, text: collapse(text) }, consumed: overlined ? 3 : 2 };
}

function standaloneHeading(group: string[], next: string[] | undefined): boolean {
  const line = collapse(group[0] ?? "");
  return (
    group.length === 1 &&
    next !== undefined &&
    line.length <= MAX_HEADING_CHARS &&
    line.split(" ").length <= MAX_HEADING_WORDS &&
    !/[.,;:!?…)\]"'”’]$/u.test(line) &&
    !BULLET.test(group[0] ?? "")
  );
}

function lineHeading(line: string): Heading {
  const text = collapse(line);
  const numbered = /^(\d+(?:\.\d+)*)\.?\s+\S/u.exec(text);
  if (numbered) return { level: (numbered[1] ?? "").split(".").length + 1, text };
  return { level: text === text.toUpperCase() && /\p{Lu}/u.test(text) ? 2 : 3, text };
}

function listItems(lines: string[]): string[] {
  const items: string[] = [];
  for (const line of lines) {
    if (BULLET.test(line)) items.push(line.replace(BULLET, ""));
    else items[items.length - 1] = `${items.at(-1) ?? ""} ${line.trim()}`;
  }
  return items;
}
