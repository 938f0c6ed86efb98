/** Line-level Markdown recognisers shared by the Markdown reader: headings, fences, lists, tables, front matter. */
import { type LinkDefinitions, plain } from "./inline-markdown.ts";

export const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/u;
export const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/u;
export const THEMATIC_BREAK = /^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$/u;
export const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$/u;
export const BLOCKQUOTE = /^ {0,3}>[ ]?(.*)$/u;
/** An HTML block (CommonMark kind 6) that ends at a blank line. */
export const HTML_BLOCK =
  /^ {0,3}<\/?(address|article|aside|blockquote|center|details|div|dl|figure|footer|h[1-6]|header|ol|p|pre|section|table|ul)(\s|\/?>|$)/iu;
export const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/u;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/u;
const DEFINITION =
  /^ {0,3}\[([^\]^][^\]]*)\]:[ \t]*<?(\S+?)>?(?:[ \t]+(?:"([^"]*)"|'([^']*)'|\(([^)]*)\)))?[ \t]*$/u;

/** Heading text as plain text: inline syntax and a trailing `{#anchor}` removed. */
export function headingText(source: string): string {
  return plain(source.replace(/\s*\{#[^}]*\}\s*$/u, ""));
}

/** True when `line` starts a GFM table, i.e. it has a pipe and the next line is a delimiter row. */
export function startsTable(line: string, next: string | undefined): boolean {
  return line.includes("|") && next?.includes("-") === true && TABLE_DELIMITER.test(next);
}

/** Cells of one table row: split on unescaped pipes, outer pipes dropped, inline syntax removed. */
export function tableCells(line: string): string[] {
  const trimmed = line
    .trim()
    .replace(/^\|/u, "")
    .replace(/(?<!\\)\|$/u, "");
  return trimmed.split(/(?<!\\)\|/u).map((cell) => plain(cell.replaceAll("\\|", "|")));
}

/**
 * Removes a YAML (`---`) or TOML (`+++`) front matter block, returning the body and its `title`.
 * Line count is kept (the block becomes blank lines) so later messages can name lines.
 */
export function splitFrontMatter(text: string): { body: string; title: string | null } {
  const match = /^(---|\+\+\+)[ \t]*\n([\s\S]*?)\n(---|\.\.\.|\+\+\+)[ \t]*(\n|$)/u.exec(text);
  if (!match) return { body: text, title: null };
  const title = /^title[ \t]*[:=][ \t]*(.+)$/mu
    .exec(match[2] ?? "")?.[1]
    ?.trim()
    .replace(/^(["'])(.*)\1$/u, "$2");
  const blank = "\n".repeat(match[0].split("\n").length - 1);
  return { body: blank + text.slice(match[0].length), title: title ? plain(title) : null };
}

/** Collects `[label]: url "title"` definitions and blanks their lines (outside fenced code). */
export function takeLinkDefinitions(lines: string[]): LinkDefinitions {
  const definitions: LinkDefinitions = new Map();
  let fence: string | null = null;
  lines.forEach((line, index) => {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1] ?? "";
      if (fence === null) fence = marker;
      else if (marker.startsWith(fence.charAt(0)) && marker.length >= fence.length) fence = null;
      return;
    }
    if (fence !== null) return;
    const match = DEFINITION.exec(line);
    if (!match) return;
    const label = (match[1] ?? "").trim().toLowerCase();
    if (!definitions.has(label)) {
      definitions.set(label, { url: match[2] ?? "", title: match[3] ?? match[4] ?? match[5] ?? null });
    }
    lines[index] = "";
  });
  return definitions;
}
