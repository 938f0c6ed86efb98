/** An engine that answers with a fallback engine when the primary one fails before its first claim. */
import type { Logger } from "../../logger.ts";
import type { AnswerEngine } from "../engine.ts";

function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  const failure = "failure" in error ? { failure: error.failure } : {};
  const status = "status" in error && error.status !== undefined ? { status: error.status } : {};
  return { error: error.message, name: error.name, ...failure, ...status };
}

/**
 * Uses `primary`; if it throws before yielding a claim, logs and yields `fallback`'s claims instead.
 * If it throws after yielding some, those stand (each was verified) and the answer ends there.
 *
 * @example
 * const engine = createFallbackEngine(createLlmEngine(llm), createExtractiveEngine(), logger);
 */
export function createFallbackEngine(
  primary: AnswerEngine,
  fallback: AnswerEngine,
  logger: Logger,
): AnswerEngine {
  return {
    name: `${primary.name} (falls back to ${fallback.name})`,
    async *compose(request) {
      let yielded = 0;
      try {
        for await (const claim of primary.compose(request)) {
          yielded += 1;
          yield claim;
        }
        return;
      } catch (error) {
        if (yielded > 0) {
          logger.warn("answer engine failed mid-answer; keeping the claims already given", {
            engine: primary.name,
            claims: yielded,
            ...describe(error),
          });
          return;
        }
        logger.warn("answer engine failed; answering with the fallback engine", {
          engine: primary.name,
          fallback: fallback.name,
          ...describe(error),
        });
      }
      yield* fallback.compose(request);
    },
  };
}
