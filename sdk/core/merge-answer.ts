/** The pure reducer of the ask stream: one line in, the next answer snapshot out. */
import type { z } from "zod";
import { type AnswerState, answerActivityLimit } from "./answer-state.ts";
import { AnswerStreamError, describeIssues } from "./answer-stream-error.ts";
import {
  type AskStreamLine,
  activityLineSchema,
  askStreamLineTypes,
  doneLineSchema,
  errorLineSchema,
  statusLineSchema,
  type UtteranceLine,
  utteranceLineSchema,
} from "./schemas/ask.ts";

export interface MergeAnswerOptions {
  /** 1-based line number in the stream, so an error can name the line. */
  lineNumber?: number | null;
}

type LineType = AskStreamLine["type"];

const lineSchemas = {
  status: statusLineSchema,
  activity: activityLineSchema,
  utterance: utteranceLineSchema,
  done: doneLineSchema,
  error: errorLineSchema,
} as const satisfies Record<LineType, z.ZodType>;

interface LineContext {
  state: AnswerState;
  lineType: LineType;
  lineNumber: number | null;
}

/**
 * Applies one parsed stream line (unvalidated JSON) to an answer and returns the next answer;
 * the input state is never changed. The text is replaced; claims (by `n`), references (by `id`)
 * and numbering accumulate, a later entry with the same key replacing the earlier one. Lines of
 * an unknown `type` are ignored (the same state is returned), so newer services stay readable.
 *
 * @throws {AnswerStreamError} `invalid_line` when a line has no `type` or a known type has the
 * wrong shape; `unexpected_line` for any line after done/error or naming another message.
 *
 * @example
 * let answer = createAnswerState();
 * for (const line of lines) answer = mergeAnswer(answer, line);
 * console.log(answer.text, Object.values(answer.claims));
 */
export function mergeAnswer(
  state: AnswerState,
  line: unknown,
  options: MergeAnswerOptions = {},
): AnswerState {
  const lineNumber = options.lineNumber ?? null;
  const rawType = readLineType(line, lineNumber, state);
  if (state.phase !== "streaming") {
    throw new AnswerStreamError(`no line may follow the answer's ${state.phase} line`, {
      reason: "unexpected_line",
      lineType: rawType,
      lineNumber,
      state,
    });
  }
  if (!isKnownLineType(rawType)) return state;
  const context: LineContext = { state, lineType: rawType, lineNumber };
  switch (rawType) {
    case "status": {
      const { stage, message } = parseLine(lineSchemas.status, line, context);
      return { ...state, status: { stage, message } };
    }
    case "activity": {
      const { name, detail } = parseLine(lineSchemas.activity, line, context);
      return { ...state, activity: [...state.activity, { name, detail }].slice(-answerActivityLimit) };
    }
    case "utterance":
      return mergeUtterance(parseLine(lineSchemas.utterance, line, context), context);
    case "done": {
      const done = parseLine(lineSchemas.done, line, context);
      const messageId = checkMessageId(done.id_message, context);
      return { ...state, messageId, phase: "done", refusal: done.refusal, usage: done.usage };
    }
    case "error": {
      const { error } = parseLine(lineSchemas.error, line, context);
      return { ...state, phase: "error", error };
    }
  }
}

function mergeUtterance(utterance: UtteranceLine, context: LineContext): AnswerState {
  const { state } = context;
  const hasNumbering = Object.keys(utterance.numbering).length > 0;
  return {
    ...state,
    messageId: checkMessageId(utterance.id_message, context),
    text: utterance.text,
    claims: mergeKeyed(state.claims, utterance.claims, (claim) => claim.n),
    references: mergeKeyed(state.references, utterance.references, (reference) => reference.id),
    numbering: hasNumbering ? { ...state.numbering, ...utterance.numbering } : state.numbering,
  };
}

/** Keeps the record's identity when nothing changed, so renderers can skip unchanged parts. */
function mergeKeyed<Key extends string | number, Item>(
  current: Record<Key, Item>,
  items: readonly Item[],
  keyOf: (item: Item) => Key,
): Record<Key, Item> {
  if (items.length === 0) return current;
  const merged = { ...current };
  for (const item of items) merged[keyOf(item)] = item;
  return merged;
}

function checkMessageId(messageId: string, { state, lineType, lineNumber }: LineContext): string {
  if (state.messageId !== null && state.messageId !== messageId) {
    throw new AnswerStreamError(`id_message ${messageId} differs from ${state.messageId} of earlier lines`, {
      reason: "unexpected_line",
      lineType,
      lineNumber,
      state,
    });
  }
  return messageId;
}

function readLineType(line: unknown, lineNumber: number | null, state: AnswerState): string {
  const type =
    typeof line === "object" && line !== null && !Array.isArray(line) ? Reflect.get(line, "type") : null;
  if (typeof type !== "string") {
    throw new AnswerStreamError("a stream line must be a JSON object with a string `type`", {
      reason: "invalid_line",
      lineNumber,
      state,
    });
  }
  return type;
}

function isKnownLineType(type: string): type is LineType {
  return (askStreamLineTypes as readonly string[]).includes(type);
}

function parseLine<Schema extends z.ZodType>(
  schema: Schema,
  line: unknown,
  context: LineContext,
): z.output<Schema> {
  const result = schema.safeParse(line);
  if (result.success) return result.data;
  throw new AnswerStreamError(`malformed line: ${describeIssues(result.error.issues)}`, {
    reason: "invalid_line",
    lineType: context.lineType,
    lineNumber: context.lineNumber,
    issues: result.error.issues,
    state: context.state,
  });
}
