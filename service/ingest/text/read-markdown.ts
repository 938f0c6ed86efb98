/** Reads Markdown into blocks under their headings: paragraphs, lists, code, tables and images. */

import type { BlockEvidence } from "../../domain.ts";
import type { TextSourceBlock } from "../types.ts";
import { decodeSourceText } from "./decode-text.ts";
import { HeadingStack } from "./heading-stack.ts";
import { htmlBlocks } from "./html-blocks.ts";
import { parseHtmlFragment } from "./html-tree.ts";
import { type InlineImage, type LinkDefinitions, renderInline } from "./inline-markdown.ts";
import {
  ATX_HEADING,
  BLOCKQUOTE,
  FENCE,
  HTML_BLOCK,
  headingText,
  LIST_ITEM,
  SETEXT_UNDERLINE,
  splitFrontMatter,
  startsTable,
  THEMATIC_BREAK,
  tableCells,
  takeLinkDefinitions,
} from "./markdown-syntax.ts";
import { tableBlocks, tableFromRows } from "./table-blocks.ts";
import { codeBlocks, imageBlock, listBlocks, paragraphBlocks, proseEvidence } from "./text-blocks.ts";
import type { TextReader } from "./text-reader.ts";
import { httpUrl, resolveUrl } from "./urls.ts";

interface MarkdownState {
  headings: HeadingStack;
  blocks: TextSourceBlock[];
  definitions: LinkDefinitions;
  evidence: BlockEvidence;
  pageUrl: string | null;
  firstTitle: string | null;
}

/** Reads a Markdown file (CommonMark + GFM tables); the title is the front matter `title` or the first `#` heading. */
export const readMarkdown: TextReader = (_fileName, bytes, context) => {
  const { text, warnings } = decodeSourceText(bytes);
  const { body, title } = splitFrontMatter(text);
  const lines = blankComments(body).split("\n");
  const pageUrl = httpUrl(context.datasourceUrl);
  const state: MarkdownState = {
    headings: new HeadingStack(),
    blocks: [],
    definitions: takeLinkDefinitions(lines),
    evidence: proseEvidence(pageUrl),
    pageUrl,
    firstTitle: null,
  };
  readLines(lines, state);
  return { title: title ?? state.firstTitle, blocks: state.blocks, warnings };
};

function readLines(lines: string[], state: MarkdownState): void {
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? "";
    if (line.trim() === "" || THEMATIC_BREAK.test(line)) {
      index += 1;
    } else if (FENCE.test(line)) {
      index = readFence(lines, index, state);
    } else if (ATX_HEADING.test(line)) {
      const match = ATX_HEADING.exec(line);
      enterHeading(state, match?.[1]?.length ?? 1, headingText(match?.[2] ?? ""));
      index += 1;
    } else if (startsTable(line, lines[index + 1])) {
      index = readTable(lines, index, state);
    } else if (BLOCKQUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && BLOCKQUOTE.test(lines[index] ?? "")) {
        // All nesting levels at once: quotes within quotes read the same, and recursion stays shallow.
        quoted.push((lines[index] ?? "").replace(/^(?: {0,3}>[ ]?)+/u, ""));
        index += 1;
      }
      readLines(quoted, state);
    } else if (LIST_ITEM.test(line)) {
      index = readList(lines, index, state);
    } else if (/^( {4}|\t)/u.test(line)) {
      const code: string[] = [];
      while (
        index < lines.length &&
        (/^( {4}|\t)/u.test(lines[index] ?? "") || (lines[index] ?? "").trim() === "")
      ) {
        code.push((lines[index] ?? "").replace(/^( {4}|\t)/u, ""));
        index += 1;
      }
      state.blocks.push(...codeBlocks(state.headings.path, code.join("\n"), state.evidence));
    } else if (HTML_BLOCK.test(line)) {
      index = readHtmlBlock(lines, index, state);
    } else {
      index = readParagraph(lines, index, state);
    }
  }
}

function readParagraph(lines: string[], start: number, state: MarkdownState): number {
  const paragraph: string[] = [];
  let index = start;
  while (index < lines.length) {
    const line = lines[index] ?? "";
    if (paragraph.length > 0 && SETEXT_UNDERLINE.test(line)) {
      enterHeading(state, line.trim().startsWith("=") ? 1 : 2, headingText(paragraph.join(" ")));
      return index + 1;
    }
    if (line.trim() === "" || (paragraph.length > 0 && interruptsParagraph(line, lines[index + 1]))) break;
    paragraph.push(line.trim());
    index += 1;
  }
  // A footnote definition reads as an ordinary paragraph without its "[^1]:" marker.
  emitProse(state, [paragraph.join("\n").replace(/^\[\^[^\]]+\]:\s*/u, "")], false);
  return index;
}

function interruptsParagraph(line: string, next: string | undefined): boolean {
  if (FENCE.test(line) || ATX_HEADING.test(line) || BLOCKQUOTE.test(line) || THEMATIC_BREAK.test(line))
    return true;
  if (HTML_BLOCK.test(line) || startsTable(line, next)) return true;
  // Only bullets and lists starting at 1 interrupt a paragraph (CommonMark), so "2019. A year…" stays prose.
  const item = LIST_ITEM.exec(line);
  return item !== null && (item[4] ?? "").trim() !== "" && /^([-*+]|1[.)])$/u.test(item[2] ?? "");
}

/** Raw HTML inside Markdown (centred logos, <details>, HTML tables) is read like an HTML page fragment. */
function readHtmlBlock(lines: string[], start: number, state: MarkdownState): number {
  const tag = (HTML_BLOCK.exec(lines[start] ?? "")?.[1] ?? "").toLowerCase();
  // Tables and preformatted text often hold blank lines; they end at their closing tag instead.
  const closing = tag === "table" || tag === "pre" ? new RegExp(`</${tag}\\s*>`, "iu") : null;
  let index = start;
  let closed = closing === null;
  while (index < lines.length && (!closed || (lines[index] ?? "").trim() !== "")) {
    if (closing?.test(lines[index] ?? "")) closed = true;
    index += 1;
  }
  const fragment = htmlBlocks(parseHtmlFragment(lines.slice(start, index).join("\n")), {
    evidence: state.evidence,
    baseUrl: state.pageUrl,
  });
  const path = state.headings.path;
  for (const block of fragment.blocks)
    state.blocks.push({ ...block, headingPath: [...path, ...block.headingPath] });
  return index;
}

function readFence(lines: string[], start: number, state: MarkdownState): number {
  const marker = FENCE.exec(lines[start] ?? "")?.[1] ?? "```";
  const code: string[] = [];
  let index = start + 1;
  while (index < lines.length) {
    const closing = /^ {0,3}(`{3,}|~{3,})[ \t]*$/u.exec(lines[index] ?? "");
    if (closing && closing[1]?.charAt(0) === marker.charAt(0) && (closing[1]?.length ?? 0) >= marker.length)
      break;
    code.push(lines[index] ?? "");
    index += 1;
  }
  state.blocks.push(...codeBlocks(state.headings.path, code.join("\n"), state.evidence));
  return index + 1;
}

function readTable(lines: string[], start: number, state: MarkdownState): number {
  const rows = [tableCells(lines[start] ?? "")];
  let index = start + 2;
  while (index < lines.length && (lines[index] ?? "").includes("|") && (lines[index] ?? "").trim() !== "") {
    rows.push(tableCells(lines[index] ?? ""));
    index += 1;
  }
  state.blocks.push(...tableBlocks(state.headings.path, tableFromRows(rows, "first")));
  return index;
}

/** Reads a list (nested items flattened) as one block; continuation lines join their item. */
function readList(lines: string[], start: number, state: MarkdownState): number {
  const items: string[] = [];
  let index = start;
  let previousBlank = false;
  while (index < lines.length) {
    const line = lines[index] ?? "";
    const item = LIST_ITEM.exec(line);
    if (line.trim() === "") {
      previousBlank = true;
    } else if (item && !THEMATIC_BREAK.test(line)) {
      items.push((item[4] ?? "").replace(/^\[[ xX]\][ \t]+/u, ""));
      previousBlank = false;
    } else if (/^[ \t]+/u.test(line) || !previousBlank) {
      if (!previousBlank && !/^[ \t]/u.test(line) && interruptsParagraph(line, lines[index + 1])) break;
      items[items.length - 1] = `${items.at(-1) ?? ""}\n${line.trim()}`;
      previousBlank = false;
    } else {
      break;
    }
    index += 1;
  }
  emitProse(state, items, true);
  return index;
}

function emitProse(state: MarkdownState, sources: string[], isList: boolean): void {
  const images: InlineImage[] = [];
  const texts = sources.flatMap((source) => {
    const rendered = renderInline(source, state.definitions);
    images.push(...rendered.images);
    return rendered.text === "" ? [] : [rendered.text];
  });
  const path = state.headings.path;
  if (isList) state.blocks.push(...listBlocks(path, texts, state.evidence));
  else for (const text of texts) state.blocks.push(...paragraphBlocks(path, text, state.evidence));
  for (const image of images) {
    const block = imageBlock(path, {
      alt: image.alt,
      caption: image.title,
      url: resolveUrl(image.src, state.pageUrl),
    });
    if (block) state.blocks.push(block);
  }
}

function enterHeading(state: MarkdownState, level: number, text: string): void {
  state.headings.enter(level, text);
  if (level === 1 && state.firstTitle === null && text !== "") state.firstTitle = text;
}

/** Blanks HTML comments that start a line (even across lines), keeping newlines so line numbers hold. */
function blankComments(text: string): string {
  let result = "";
  let position = 0;
  const opening = /^[ \t]*<!--/gmu;
  for (let match = opening.exec(text); match; match = opening.exec(text)) {
    const end = text.indexOf("-->", match.index + match[0].length);
    if (end === -1) break;
    result += text.slice(position, match.index) + text.slice(match.index, end + 3).replace(/[^\n]/gu, "");
    position = end + 3;
    opening.lastIndex = position;
  }
  return result + text.slice(position);
}
