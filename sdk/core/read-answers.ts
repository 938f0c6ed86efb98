/** Stream reduction: an ask response (bytes or whole text) → answer snapshots → the final answer. */
import { type AnswerState, createAnswerState } from "./answer-state.ts";
import { AnswerStreamError } from "./answer-stream-error.ts";
import type { ByteStream } from "./byte-source.ts";
import { mergeAnswer } from "./merge-answer.ts";
import { createLineSplitter, parseNdjsonLine } from "./ndjson-lines.ts";
import { type ReadStreamOptions, readLines } from "./read-lines.ts";

/**
 * Reads an ask response stream and yields an answer snapshot after every line that changes the
 * answer (unknown line types yield nothing). Ends after the `done` or `error` line, cancelling
 * the source: anything after it is not read. Snapshots are read-only and share unchanged parts.
 *
 * @throws {AnswerStreamError} `truncated` when the stream ends first, `invalid_json`,
 * `invalid_line`, `unexpected_line`, `invalid_encoding`; each names the line and carries the
 * answer so far in `state`. An abort rejects with `signal.reason`; a failing source with its error.
 *
 * @example
 * const response = await fetch(askUrl, { method: "POST", body, headers, signal });
 * for await (const answer of readAnswers(response.body!, { signal })) {
 *   render(answer.text, answer.claims, answer.references);
 * }
 */
export async function* readAnswers(
  stream: ByteStream,
  options: ReadStreamOptions = {},
): AsyncGenerator<AnswerState, void, undefined> {
  let state = createAnswerState();
  let lastLineNumber: number | null = null;
  try {
    for await (const line of readLines(stream, options)) {
      lastLineNumber = line.lineNumber;
      const next = mergeAnswer(state, parseNdjsonLine(line).value, { lineNumber: line.lineNumber });
      if (next === state) continue;
      state = next;
      yield state;
      if (state.phase !== "streaming") return;
    }
  } catch (error) {
    throw withAnswer(error, state);
  }
  throw truncated(state, lastLineNumber);
}

/**
 * Reduces a whole ask response text at once, with the same rules as `readAnswers` (which
 * yields the same final answer however the bytes were chunked).
 *
 * @throws {AnswerStreamError} as `readAnswers` does.
 *
 * @example
 * const answer = reduceAnswerText(await response.text());
 * console.log(answer.phase, answer.text);
 */
export function reduceAnswerText(ndjson: string): AnswerState {
  const splitter = createLineSplitter();
  let state = createAnswerState();
  let lastLineNumber: number | null = null;
  try {
    for (const line of [...splitter.push(ndjson), ...splitter.end()]) {
      lastLineNumber = line.lineNumber;
      state = mergeAnswer(state, parseNdjsonLine(line).value, { lineNumber: line.lineNumber });
      if (state.phase !== "streaming") return state;
    }
  } catch (error) {
    throw withAnswer(error, state);
  }
  throw truncated(state, lastLineNumber);
}

function truncated(state: AnswerState, lastLineNumber: number | null): AnswerStreamError {
  return new AnswerStreamError("the stream ended before a done or error line", {
    reason: "truncated",
    lineNumber: lastLineNumber,
    state,
  });
}

/** Line-level errors know nothing of the answer; give them the answer so far, so it can be kept. */
function withAnswer(error: unknown, state: AnswerState): unknown {
  if (!AnswerStreamError.isInstance(error) || error.state !== null) return error;
  return new AnswerStreamError(error.detail, {
    reason: error.reason,
    lineType: error.lineType,
    lineNumber: error.lineNumber,
    issues: error.issues,
    state,
    cause: error.cause,
  });
}
