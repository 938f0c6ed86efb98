/** The reduced state of one answer stream: what a reader has seen so far, keyed so nothing is lost. */
import type { Claim, Reference } from "./schemas/reference.ts";
import type { ProblemDetails } from "./schemas/common.ts";
import type { StatusLine } from "./schemas/ask.ts";

export interface AnswerState {
  /** `msg_…` of the answer, once the first utterance or done line named it. */
  messageId: string | null;
  /** The latest complete snapshot text (replaced, never appended). */
  text: string;
  /** Claims by their number `n`. */
  claims: Record<number, Claim>;
  /** References by their durable id. */
  references: Record<string, Reference>;
  /** Display number of each reference id. */
  numbering: Record<string, number>;
  /** The latest status line, for a progress indicator. */
  status: Pick<StatusLine, "stage" | "message"> | null;
  /** `streaming` until a done or error line arrives. */
  phase: "streaming" | "done" | "error";
  refusal: boolean;
  usage: { passages_read: number; ms: number } | null;
  error: ProblemDetails | null;
}

export function createAnswerState(): AnswerState {
  return {
    messageId: null,
    text: "",
    claims: {},
    references: {},
    numbering: {},
    status: null,
    phase: "streaming",
    refusal: false,
    usage: null,
    error: null,
  };
}
