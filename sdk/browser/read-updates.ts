/** The host's ask stream (NDJSON) → validated SDK updates, ending at the `saved` line. */
import { describeIssues } from "../core/answer-stream-error.ts";
import type { ByteStream } from "../core/byte-source.ts";
import { type AnswerState, AnswerStreamError } from "../core/index.ts";
import { parseNdjson } from "../core/read-lines.ts";
import { type ServiceUpdate, serviceUpdateSchema, serviceUpdateTypes } from "../core/wire.ts";

/**
 * Reads the handler's ask stream. Each line is validated; lines of an unknown `type` are skipped
 * so a newer host stays readable. Ends after the `saved` line (cancelling the rest).
 *
 * @throws {AnswerStreamError} `invalid_line` for a malformed known line, `invalid_json`, and
 * `truncated` (carrying the last answer in `state`) when the stream ends before `saved`. An
 * abort rejects with `signal.reason`.
 *
 * @example
 * for await (const update of readUpdates(response.body!, { signal })) {
 *   if (update.type === "answer") render(update.answer);
 * }
 */
export async function* readUpdates(
  stream: ByteStream,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<ServiceUpdate, void, undefined> {
  let latest: AnswerState | null = null;
  let lastLineNumber: number | null = null;
  for await (const { value, lineNumber } of parseNdjson(stream, options)) {
    lastLineNumber = lineNumber;
    const type = typeof value === "object" && value !== null ? Reflect.get(value, "type") : undefined;
    if (typeof type !== "string") {
      throw new AnswerStreamError("a stream line must be a JSON object with a string `type`", {
        reason: "invalid_line",
        lineNumber,
        state: latest,
      });
    }
    if (!(serviceUpdateTypes as readonly string[]).includes(type)) continue;
    const parsed = serviceUpdateSchema.safeParse(value);
    if (!parsed.success) {
      throw new AnswerStreamError(`malformed line: ${describeIssues(parsed.error.issues)}`, {
        reason: "invalid_line",
        lineType: type,
        lineNumber,
        issues: parsed.error.issues,
        state: latest,
      });
    }
    const update = parsed.data;
    if (update.type === "answer") latest = update.answer;
    yield update;
    if (update.type === "saved") return;
  }
  throw new AnswerStreamError("the stream ended before the answer was saved", {
    reason: "truncated",
    lineNumber: lastLineNumber,
    state: latest,
  });
}
