/** Parses WebVTT and SRT subtitle files into timed cues of plain text. */
import { decodeHTML } from "entities";

export interface Cue {
  startS: number;
  endS: number;
  text: string;
  /** 1-based line of the cue's timing line. */
  line: number;
}

export interface ParsedCues {
  cues: Cue[];
  /** WebVTT header text after "WEBVTT", if any. */
  title: string | null;
  /** A URL named by a `NOTE source: https://…` block. */
  sourceUrl: string | null;
  warnings: string[];
}

const TIMESTAMP = String.raw`(?:(\d+):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?`;
const TIMING = new RegExp(String.raw`^\s*${TIMESTAMP}\s*-->\s*${TIMESTAMP}`, "u");

/** Parses a WebVTT file; NOTE, STYLE and REGION blocks, cue settings and markup are dropped. */
export function parseWebVtt(text: string): ParsedCues {
  const blocks = splitBlocks(text);
  const header = blocks[0]?.lines[0] ?? "";
  const hasHeader = /^WEBVTT(\s|$)/u.test(header);
  const title = hasHeader
    ? header
        .slice(6)
        .replace(/^\s*-?\s*/u, "")
        .trim() || null
    : null;
  let sourceUrl: string | null = null;
  const cueBlocks = blocks.filter((block, index) => {
    const first = block.lines[0] ?? "";
    if (first.startsWith("NOTE")) {
      sourceUrl ??= /\bsource\s*:\s*(\S+)/iu.exec(block.lines.join("\n"))?.[1] ?? null;
      return false;
    }
    if (index === 0 && hasHeader) return false;
    return !/^(STYLE|REGION)\s*$/u.test(first);
  });
  const result = parseCueBlocks(cueBlocks);
  return { ...result, title, sourceUrl };
}

/** Parses an SRT file (`1` / `00:00:01,500 --> 00:00:04,000` / text); `<i>` and `{\an8}` markup is dropped. */
export function parseSrt(text: string): ParsedCues {
  return { ...parseCueBlocks(splitBlocks(text)), title: null, sourceUrl: null };
}

interface LineBlock {
  line: number;
  lines: string[];
}

function splitBlocks(text: string): LineBlock[] {
  const blocks: LineBlock[] = [];
  let current: LineBlock | null = null;
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") {
      current = null;
    } else if (current) {
      current.lines.push(line);
    } else {
      current = { line: index + 1, lines: [line] };
      blocks.push(current);
    }
  });
  return blocks;
}

function parseCueBlocks(blocks: LineBlock[]): Omit<ParsedCues, "title" | "sourceUrl"> {
  const cues: Cue[] = [];
  const skipped: number[] = [];
  let previousLines: string[] = [];
  for (const block of blocks) {
    const timingIndex = block.lines.findIndex((line) => line.includes("-->"));
    const timing = timingIndex === -1 || timingIndex > 1 ? null : TIMING.exec(block.lines[timingIndex] ?? "");
    if (!timing) {
      skipped.push(block.line);
      continue;
    }
    const startS = seconds(timing.slice(1, 5));
    const endS = seconds(timing.slice(5, 9));
    // Rolling captions repeat the previous cue's lines before adding a new one; keep each line once.
    const lines = block.lines
      .slice(timingIndex + 1)
      .map(cleanCueLine)
      .filter((line) => line !== "");
    const fresh = lines.filter((line) => !previousLines.includes(line));
    previousLines = lines;
    if (endS < startS) {
      skipped.push(block.line + timingIndex);
      continue;
    }
    if (fresh.length > 0) cues.push({ startS, endS, text: fresh.join(" "), line: block.line + timingIndex });
    else if (cues.length > 0 && lines.length > 0) {
      const last = cues[cues.length - 1] as Cue;
      last.endS = Math.max(last.endS, endS);
    }
  }
  const warnings =
    skipped.length === 0
      ? []
      : [
          `${skipped.length} ${skipped.length === 1 ? "block was" : "blocks were"} not a valid cue and ${skipped.length === 1 ? "was" : "were"} skipped (line ${skipped.slice(0, 5).join(", ")}${skipped.length > 5 ? ", …" : ""}).`,
        ];
  return { cues, warnings };
}

/** Cue text as plain text: voice, class, timestamp and formatting tags and SSA overrides removed. */
function cleanCueLine(line: string): string {
  return decodeHTML(line.replace(/<[^>]*>/gu, "").replace(/\{\\[^}]*\}/gu, ""))
    .replace(/\s+/gu, " ")
    .trim();
}

function seconds(parts: (string | undefined)[]): number {
  const [hours, minutes, wholeSeconds, fraction] = parts;
  const total =
    Number(hours ?? 0) * 3600 +
    Number(minutes ?? 0) * 60 +
    Number(wholeSeconds ?? 0) +
    Number(`0.${fraction ?? "0"}`);
  return Math.round(total * 1000) / 1000;
}
