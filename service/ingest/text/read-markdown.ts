/** Reads Markdown (markdown-it: CommonMark, GFM tables, footnotes) into blocks under their headings. */

import MarkdownIt, { type Token } from "markdown-it";
import footnote from "markdown-it-footnote";
import type { BlockEvidence } from "../../domain.ts";
import type { TextSourceBlock } from "../types.ts";
import { decodeSourceText } from "./decode-text.ts";
import { HeadingStack } from "./heading-stack.ts";
import { htmlBlocks } from "./html-blocks.ts";
import { parseHtmlFragment } from "./html-tree.ts";
import { type InlineImage, renderInline } from "./inline-markdown.ts";
import { tableBlocks, tableFromRows } from "./table-blocks.ts";
import { codeBlocks, imageBlock, listBlocks, paragraphBlocks, proseEvidence } from "./text-blocks.ts";
import type { TextReader } from "./text-reader.ts";
import { httpUrl, resolveUrl } from "./urls.ts";

/** Raw HTML on, as READMEs use it; markdown-it's nesting limit bounds work on hostile input. */
const markdown = new MarkdownIt({ html: true }).use(footnote);
// Nothing is rendered from these tokens: every link is parsed, and `resolveUrl` keeps only http(s) addresses.
markdown.validateLink = () => true;

interface MarkdownState {
  headings: HeadingStack;
  blocks: TextSourceBlock[];
  evidence: BlockEvidence;
  pageUrl: string | null;
  firstTitle: string | null;
  /** The heading path from each heading's line on, for text the parser moves (footnotes go to the end). */
  pathsByLine: { line: number; path: string[] }[];
}

/** Reads a Markdown file; the title is the front matter `title` or the first `#` heading. */
export const readMarkdown: TextReader = (_fileName, bytes, context) => {
  const { text, warnings } = decodeSourceText(bytes);
  const { body, title } = splitFrontMatter(text);
  const pageUrl = httpUrl(context.datasourceUrl);
  const state: MarkdownState = {
    headings: new HeadingStack(),
    blocks: [],
    evidence: proseEvidence(pageUrl),
    pageUrl,
    firstTitle: null,
    pathsByLine: [],
  };
  readTokens(markdown.parse(body, {}), state);
  return { title: title ?? state.firstTitle, blocks: state.blocks, warnings };
};

function readTokens(tokens: Token[], state: MarkdownState): void {
  let index = 0;
  let footnotes = false;
  while (index < tokens.length) {
    const token = tokens[index] as Token;
    if (token.type === "footnote_block_open") footnotes = true;
    if (token.type === "heading_open") {
      const text = headingText(tokens[index + 1]);
      const level = Number(token.tag.slice(1));
      state.headings.enter(level, text);
      state.pathsByLine.push({ line: token.map?.[0] ?? 0, path: state.headings.path });
      if (level === 1 && state.firstTitle === null && text !== "") state.firstTitle = text;
      index = closing(tokens, index);
    } else if (token.type === "paragraph_open") {
      const path = footnotes ? pathAtLine(state, token.map?.[0] ?? 0) : state.headings.path;
      emitProse(state, [tokens[index + 1]], false, path);
      index = closing(tokens, index);
    } else if (token.type === "bullet_list_open" || token.type === "ordered_list_open") {
      const end = closing(tokens, index);
      readList(tokens.slice(index + 1, end - 1), state);
      index = end;
    } else if (token.type === "fence" || token.type === "code_block") {
      state.blocks.push(...codeBlocks(state.headings.path, token.content, state.evidence));
      index += 1;
    } else if (token.type === "table_open") {
      const end = closing(tokens, index);
      const rows = tableRows(tokens.slice(index, end));
      for (const block of tableBlocks(state.headings.path, tableFromRows(rows, "first")))
        state.blocks.push(block);
      index = end;
    } else if (token.type === "html_block") {
      index = readHtmlBlock(tokens, index, state);
    } else {
      // Block quotes, footnote sections and rules add no text of their own; what they hold is read in turn.
      index += 1;
    }
  }
}

/** The index just past the token that closes the one opened at `start` (same nesting level). */
function closing(tokens: Token[], start: number): number {
  const opened = tokens[start] as Token;
  const closeType = opened.type.replace(/_open$/u, "_close");
  for (let index = start + 1; index < tokens.length; index += 1) {
    const token = tokens[index] as Token;
    if (token.type === closeType && token.level === opened.level) return index + 1;
  }
  return tokens.length;
}

/** A list (nested lists flattened) as one block: each item's paragraphs and code make one item. */
function readList(tokens: Token[], state: MarkdownState): void {
  const items: Token[][] = [];
  for (const token of tokens) {
    if (token.type === "list_item_open") items.push([]);
    else if (token.type === "inline" || token.type === "fence" || token.type === "code_block")
      items.at(-1)?.push(token);
  }
  emitProse(
    state,
    items.filter((item) => item.length > 0),
    true,
  );
}

/** Raw HTML (centred logos, <details>, HTML tables) is read like a page fragment under the current heading. */
function readHtmlBlock(tokens: Token[], start: number, state: MarkdownState): number {
  const parts = [(tokens[start] as Token).content];
  let index = start + 1;
  // A blank line ends an HTML block, but tables and preformatted text often hold one: read on to the closing tag.
  const open = /<(table|pre)\b/iu.exec(parts[0] ?? "")?.[1];
  if (open) {
    const close = new RegExp(`</${open}\\s*>`, "iu");
    let closed = close.test(parts[0] ?? "");
    while (!closed && tokens[index]?.type === "html_block") {
      const part = (tokens[index] as Token).content;
      parts.push(part);
      closed = close.test(part);
      index += 1;
    }
  }
  const fragment = htmlBlocks(parseHtmlFragment(parts.join("\n")), {
    evidence: state.evidence,
    baseUrl: state.pageUrl,
  });
  const path = state.headings.path;
  for (const block of fragment.blocks)
    state.blocks.push({ ...block, headingPath: [...path, ...block.headingPath] });
  return index;
}

function tableRows(tokens: Token[]): string[][] {
  const rows: string[][] = [];
  tokens.forEach((token, index) => {
    if (token.type === "tr_open") rows.push([]);
    else if (token.type === "th_open" || token.type === "td_open")
      rows.at(-1)?.push(renderInline(tokens[index + 1]).text);
  });
  return rows;
}

/**
 * Paragraphs or list items (each one or more inline or code tokens) as prose blocks, followed by the
 * images met inside them.
 */
function emitProse(
  state: MarkdownState,
  sources: (Token | undefined | Token[])[],
  isList: boolean,
  path = state.headings.path,
): void {
  const images: InlineImage[] = [];
  const texts = sources.flatMap((source) => {
    const parts = (Array.isArray(source) ? source : [source]).map((token) => {
      if (token?.type !== "inline") return token?.content ?? "";
      const rendered = renderInline(token);
      images.push(...rendered.images);
      return rendered.text;
    });
    const text = parts.filter((part) => part !== "").join("\n");
    return text === "" ? [] : [isList ? text.replace(/^\[[ xX]\][ \t]+/u, "") : text];
  });
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

/** The heading path in effect at a source line: a footnote is cited under the heading it was written under. */
function pathAtLine(state: MarkdownState, line: number): string[] {
  // Binary search: entries are in line order, and a file may hold tens of thousands of footnotes and headings.
  const entries = state.pathsByLine;
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle]!.line <= line) low = middle + 1;
    else high = middle;
  }
  return entries[low - 1]?.path ?? [];
}

/** Heading text as plain text, without images or a trailing `{#anchor}`. */
function headingText(inline: Token | undefined): string {
  return renderInline(inline).text.replace(/\s*\{#[^}]*\}\s*$/u, "");
}

/**
 * Removes a YAML (`---`) or TOML (`+++`) front matter block, returning the body and its `title`.
 * Line count is kept (the block becomes blank lines) so later messages can name lines.
 */
function splitFrontMatter(text: string): { body: string; title: string | null } {
  const match = /^(---|\+\+\+)[ \t]*\n([\s\S]*?)\n(---|\.\.\.|\+\+\+)[ \t]*(\n|$)/u.exec(text);
  if (!match) return { body: text, title: null };
  const title = /^title[ \t]*[:=][ \t]*(.+)$/mu
    .exec(match[2] ?? "")?.[1]
    ?.trim()
    .replace(/^(["'])(.*)\1$/u, "$2");
  const blank = "\n".repeat(match[0].split("\n").length - 1);
  const inline = title ? markdown.parseInline(title, {})[0] : undefined;
  return {
    body: blank + text.slice(match[0].length),
    title: inline ? renderInline(inline).text || null : null,
  };
}
