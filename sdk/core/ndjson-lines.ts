/** NDJSON framing without I/O: text in pieces → complete, numbered lines → JSON values. */
import { AnswerStreamError } from "./answer-stream-error.ts";

export interface NdjsonLine {
  /** The line without its `\n` / `\r\n` ending. */
  text: string;
  /** 1-based line number in the stream; blank lines count, as an editor shows them. */
  lineNumber: number;
  /** False only for a last line that the stream ended without a newline after. */
  terminated: boolean;
}

export interface NdjsonValue {
  value: unknown;
  lineNumber: number;
}

export interface LineSplitter {
  /** Adds decoded text; returns the non-blank lines it completed. */
  push(text: string): NdjsonLine[];
  /** Ends the input; returns the last line if the stream did not end with a newline. */
  end(): NdjsonLine[];
  /** How many lines have ended so far (blank ones included; the last one once `end` ran). */
  readonly completedLines: number;
}

/**
 * Splits text that arrives in arbitrary pieces into lines, buffering a partial line until its
 * newline arrives. Accepts `\n` and `\r\n`, skips blank lines and a leading byte-order mark.
 *
 * @example
 * const splitter = createLineSplitter();
 * splitter.push('{"type":"sta'); // []
 * splitter.push('tus"}\r\n');     // [{ text: '{"type":"status"}', lineNumber: 1, terminated: true }]
 */
export function createLineSplitter(): LineSplitter {
  let buffer = "";
  let completed = 0;
  let started = false;

  const take = (text: string, terminated: boolean): NdjsonLine[] => {
    completed += 1;
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    return line.trim() === "" ? [] : [{ text: line, lineNumber: completed, terminated }];
  };

  return {
    push(text) {
      let input = text;
      if (!started && input.length > 0) {
        started = true;
        if (input.startsWith("\uFEFF")) input = input.slice(1);
      }
      let newline = input.indexOf("\n");
      if (newline === -1) {
        buffer += input;
        return [];
      }
      const lines: NdjsonLine[] = [];
      let start = 0;
      while (newline !== -1) {
        lines.push(...take(buffer + input.slice(start, newline), true));
        buffer = "";
        start = newline + 1;
        newline = input.indexOf("\n", start);
      }
      buffer = input.slice(start);
      return lines;
    },
    end() {
      if (buffer === "") return [];
      const rest = buffer;
      buffer = "";
      return take(rest, false);
    },
    get completedLines() {
      return completed;
    },
  };
}

/**
 * Parses one line as JSON. A last line cut off without a newline is reported as `truncated`,
 * any other unparsable line as `invalid_json`; both name the line number.
 *
 * @example
 * parseNdjsonLine({ text: '{"type":"done"}', lineNumber: 7, terminated: true }).value; // { type: "done" }
 */
export function parseNdjsonLine(line: NdjsonLine): NdjsonValue {
  try {
    return { value: JSON.parse(line.text), lineNumber: line.lineNumber };
  } catch (error) {
    const reason = line.terminated ? "invalid_json" : "truncated";
    const detail = line.terminated ? "not valid JSON" : "the stream ended inside this line";
    throw new AnswerStreamError(`${detail}: ${preview(line.text)}`, {
      reason,
      lineNumber: line.lineNumber,
      cause: error,
    });
  }
}

function preview(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 77)}...`;
}
