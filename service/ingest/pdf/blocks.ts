/** Groups ordered lines into paragraph-like blocks under their headings, joining lines into one text. */

import { type HeadingClassifier, isHeadingLabel, sizeRank } from "./headings.ts";
import { heaviestKey } from "./tally.ts";
import type { TextLine } from "./text-lines.ts";

/** A block's text and, for every line it joined, where that line's characters landed in the text. */
export interface BlockDraft {
  headingPath: string[];
  text: string;
  lines: TextLine[];
  /** Offset in `text` of each line's first kept character. */
  lineOffsets: number[];
  /** Index in the line's own text of that first kept character. */
  lineStarts: number[];
  /** How many characters of the line were kept (a trailing hyphen may be dropped). */
  lineLengths: number[];
}

interface Heading {
  text: string;
  level: number;
  line: TextLine;
}

const BULLET = /^(?:[•◦‣∙▪▫■□●○◆◇➢►–—*-]|\(?[a-z\d]\))\s/u;
const SENTENCE_END = /[.!?:;]["'”’)\]]*$/u;
// Table-of-contents entries: a dot leader running to a page number.
const DOT_LEADER = /(?:\.\s?){6,}\s*[\divxlc]*$/iu;
// Navigation lists repeat the headings with page numbers; as passages they only crowd out real answers.
const CONTENTS_HEADING =
  /^(?:(?:part|chapter)\s+\S+\s+)?(?:table of contents|contents|list of (?:tables|figures|listings|examples))$/iu;

/** The usual baseline distance of consecutive body lines, as a multiple of their font size. */
export function typicalLineSpacing(pages: readonly (readonly TextLine[])[]): number {
  const counts = new Map<number, number>();
  for (const lines of pages) {
    for (let index = 1; index < lines.length; index++) {
      const previous = lines[index - 1] as TextLine;
      const line = lines[index] as TextLine;
      if (Math.abs(previous.fontSize - line.fontSize) > 0.05 * line.fontSize) continue;
      const ratio = (line.baseline - previous.baseline) / line.fontSize;
      if (ratio < 0.9 || ratio > 3) continue;
      const key = Math.round(ratio * 20) / 20;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return heaviestKey(counts, 1.2);
}

function sameStyle(previous: TextLine, line: TextLine): boolean {
  const ratio = line.fontSize / previous.fontSize;
  return previous.monospace === line.monospace && ratio < 1.15 && ratio > 1 / 1.15;
}

function createBlock(headingPath: string[]): BlockDraft {
  return { headingPath, text: "", lines: [], lineOffsets: [], lineStarts: [], lineLengths: [] };
}

/** How a line joins the text before it: a space, or straight on after a line-end hyphen. */
function joinAfterHyphen(
  text: string,
  next: string,
  monospace: boolean,
): "drop-hyphen" | "keep-hyphen" | null {
  if (monospace || !text.endsWith("-") || !/^\p{Ll}/u.test(next)) return null;
  const word = text.slice(text.search(/\S+$/));
  // "--no-" + "check" is an option, "case-by-case-" + "basis" a compound: the hyphen is real.
  if (word.startsWith("-") || word.slice(0, -1).includes("-")) return "keep-hyphen";
  return /\p{L}-$/u.test(word) ? "drop-hyphen" : null;
}

function appendLine(block: BlockDraft, line: TextLine, start: number, end: number): void {
  const kept = line.text.slice(start, end);
  const lastIndex = block.lines.length - 1;
  if (lastIndex >= 0) {
    const join = joinAfterHyphen(block.text, kept, line.monospace);
    if (join === "drop-hyphen") {
      block.text = block.text.slice(0, -1);
      block.lineLengths[lastIndex] = (block.lineLengths[lastIndex] ?? 1) - 1;
    } else if (join === null) {
      block.text += " ";
    }
  }
  block.lines.push(line);
  block.lineOffsets.push(block.text.length);
  block.lineStarts.push(start);
  block.lineLengths.push(kept.length);
  block.text += kept;
}

interface BuilderState {
  blocks: BlockDraft[];
  path: Heading[];
  block: BlockDraft | null;
  blockIsList: boolean;
  /** The last heading, while no body line has followed it (a wrapped or labelled title continues it). */
  lastHeading: Heading | null;
}

function closeBlock(state: BuilderState): void {
  if (state.block !== null && state.block.text.trim() !== "") state.blocks.push(state.block);
  state.block = null;
}

function addHeading(state: BuilderState, line: TextLine, text: string, level: number): void {
  closeBlock(state);
  const previous = state.lastHeading;
  const labelled = previous !== null && isHeadingLabel(previous.text);
  const wrapped =
    previous !== null &&
    sizeRank(previous.level) === sizeRank(level) &&
    line.baseline - previous.line.baseline <= 1.6 * line.fontSize;
  if (previous !== null && previous.line.pageIndex === line.pageIndex && (labelled || wrapped)) {
    previous.text = `${previous.text} ${text}`;
    if (labelled) previous.level = Math.min(previous.level, level);
    previous.line = line;
    const path = state.path;
    while (path.length > 1 && (path.at(-2)?.level ?? -1) >= previous.level) path.splice(-2, 1);
    return;
  }
  // A contents list ends at the next heading of its size, even a numbered one that would nest.
  const contents = state.path.findIndex(
    (heading) => CONTENTS_HEADING.test(heading.text) && sizeRank(heading.level) >= sizeRank(level),
  );
  if (contents >= 0) state.path.length = contents;
  while (state.path.length > 0 && (state.path.at(-1)?.level ?? -1) >= level) state.path.pop();
  state.lastHeading = { text, level, line };
  state.path.push(state.lastHeading);
}

function startsNewBlock(state: BuilderState, line: TextLine, text: string, paragraphGap: number): boolean {
  const current = state.block;
  if (current === null) return true;
  const previous = current.lines.at(-1) as TextLine;
  const rise = line.baseline - previous.baseline;
  const sameRow = line.pageIndex === previous.pageIndex && Math.abs(rise) < 0.5 * line.fontSize;
  // Cells of one table row stay together whatever their fonts ("mc" in code type, then its description).
  if (sameRow && line.box[0] >= previous.box[2]) return false;
  if (!sameStyle(previous, line) || BULLET.test(text)) return true;
  const brokenFlow = line.pageIndex !== previous.pageIndex || rise < -0.5 * line.fontSize;
  // A page or column break splits a paragraph only where its last line ended a sentence.
  if (brokenFlow) return SENTENCE_END.test(current.text);
  if (sameRow) return false;
  if (rise > paragraphGap * previous.fontSize) return true;
  const indent = line.box[0] - previous.box[0];
  return !state.blockIsList && !line.monospace && indent > 0.8 * line.fontSize && indent < 4 * line.fontSize;
}

/** Builds blocks from every page's lines in reading order (running headers already removed). */
export function buildBlocks(
  pages: readonly (readonly TextLine[])[],
  headings: HeadingClassifier,
  lineSpacing: number,
): BlockDraft[] {
  const state: BuilderState = { blocks: [], path: [], block: null, blockIsList: false, lastHeading: null };
  const paragraphGap = Math.max(lineSpacing * 1.25, lineSpacing + 0.2);
  for (const lines of pages) {
    for (const line of lines) {
      const start = line.text.search(/\S/);
      if (start < 0) continue;
      const end = line.text.trimEnd().length;
      const text = line.text.slice(start, end);
      const level = headings.levelOf(line);
      if (level !== null) {
        addHeading(state, line, text, level);
        continue;
      }
      if (DOT_LEADER.test(text) || state.path.some((heading) => CONTENTS_HEADING.test(heading.text))) {
        closeBlock(state);
        state.lastHeading = null;
        continue;
      }
      if (state.block === null || startsNewBlock(state, line, text, paragraphGap)) {
        closeBlock(state);
        state.block = createBlock(state.path.map((heading) => heading.text));
        state.blockIsList = BULLET.test(text);
        state.lastHeading = null;
      }
      appendLine(state.block, line, start, end);
    }
  }
  closeBlock(state);
  return state.blocks;
}
