/** The reduced state of one answer stream: what a reader has seen so far, keyed so nothing is lost. */
import type { ActivityLine, DoneLine, StatusLine } from "./schemas/ask.ts";
import type { ProblemDetails } from "./schemas/common.ts";
import type { Claim, Reference } from "./schemas/reference.ts";

/** How many activity lines a state keeps: enough for a "searching…, reading…" trail, bounded. */
export const answerActivityLimit = 5;

export type AnswerPhase = "streaming" | "done" | "error";
export type AnswerStatus = Pick<StatusLine, "stage" | "message">;
export type AnswerActivity = Pick<ActivityLine, "name" | "detail">;
export type AnswerUsage = DoneLine["usage"];

/**
 * One snapshot of an answer. Snapshots share unchanged parts with the ones before them
 * (so `claims` keeps its identity until a claim changes): treat them as read-only.
 */
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
  status: AnswerStatus | null;
  /** The last few activity lines, oldest first (at most `answerActivityLimit`). */
  activity: AnswerActivity[];
  /** `streaming` until a done or error line arrives. */
  phase: AnswerPhase;
  /** True when the service found no supporting passage and said so instead of guessing. */
  refusal: boolean;
  usage: AnswerUsage | null;
  /** The problem details of an `error` line (phase `error`). */
  error: ProblemDetails | null;
}

/**
 * The state before any line has been read.
 *
 * @example
 * let state = createAnswerState();
 * state = mergeAnswer(state, { type: "status", stage: "retrieving", message: "Searching" });
 */
export function createAnswerState(): AnswerState {
  return {
    messageId: null,
    text: "",
    claims: {},
    references: {},
    numbering: {},
    status: null,
    activity: [],
    phase: "streaming",
    refusal: false,
    usage: null,
    error: null,
  };
}
