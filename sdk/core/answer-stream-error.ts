/** The typed failure of reading an answer stream: which line, why, and the answer as far as it got. */
import type { z } from "zod";
import type { AnswerState } from "./answer-state.ts";
import { CitedError } from "./errors.ts";

/**
 * - `invalid_encoding`: the bytes are not UTF-8.
 * - `invalid_json`: a complete line is not JSON.
 * - `invalid_line`: a line is not an object with a `type`, or a known type has the wrong shape.
 * - `unexpected_line`: a valid line that cannot follow the ones before it (after done/error,
 *   or naming another message).
 * - `truncated`: the stream ended before a done or error line.
 */
export type AnswerStreamErrorReason =
  | "invalid_encoding"
  | "invalid_json"
  | "invalid_line"
  | "unexpected_line"
  | "truncated";

export interface AnswerStreamErrorOptions {
  reason: AnswerStreamErrorReason;
  /** The `type` of the offending line, when it has one. */
  lineType?: string | null;
  /** 1-based line number in the stream (blank lines count), when known. */
  lineNumber?: number | null;
  issues?: z.core.$ZodIssue[];
  state?: AnswerState | null;
  cause?: unknown;
}

/**
 * Thrown by `mergeAnswer`, `readAnswers` and `reduceAnswerText` when a stream breaks the contract.
 *
 * @example
 * try {
 *   for await (const answer of readAnswers(response.body!)) render(answer);
 * } catch (error) {
 *   if (AnswerStreamError.isInstance(error) && error.reason === "truncated" && error.state) {
 *     savePartial(error.state);
 *   } else throw error;
 * }
 */
export class AnswerStreamError extends CitedError {
  static override readonly errorName: string = "AnswerStreamError";

  readonly reason: AnswerStreamErrorReason;
  /** What went wrong, without the line prefix of `message`. */
  readonly detail: string;
  readonly lineType: string | null;
  readonly lineNumber: number | null;
  /** zod issues of an `invalid_line`; empty otherwise. */
  readonly issues: z.core.$ZodIssue[];
  /** The answer as reduced before the failing line, when known (e.g. to keep a cut-off answer). */
  readonly state: AnswerState | null;

  constructor(detail: string, options: AnswerStreamErrorOptions) {
    const lineType = options.lineType ?? null;
    const lineNumber = options.lineNumber ?? null;
    super(`${describeLine(lineNumber, lineType)}: ${detail}`, { cause: options.cause });
    this.reason = options.reason;
    this.detail = detail;
    this.lineType = lineType;
    this.lineNumber = lineNumber;
    this.issues = options.issues ?? [];
    this.state = options.state ?? null;
  }
}

function describeLine(lineNumber: number | null, lineType: string | null): string {
  const where = lineNumber === null ? "Answer stream line" : `Answer stream line ${lineNumber}`;
  return lineType === null ? where : `${where} (${lineType})`;
}

/** One readable sentence from zod issues: `claims.0.support: Too big: …; text: …`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) =>
      issue.path.length === 0 ? issue.message : `${issue.path.map(String).join(".")}: ${issue.message}`,
    )
    .join("; ");
}
