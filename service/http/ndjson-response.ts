/**
 * Streams an answer as NDJSON: headers at once, each line on the wire when it is produced, an
 * `error` line if it fails midway. The answer runs to its end whatever its reader does, so a slow
 * reader never holds the engine and a reader who leaves still gets its turn saved.
 */
import type { AskStreamLine } from "../../sdk/core/wire.ts";
import { turnOfEventLoop } from "../event-loop.ts";
import type { Logger } from "../logger.ts";
import { unexpectedProblem } from "./problem.ts";

export interface NdjsonAnswerOptions {
  requestId: string;
  logger: Logger;
  /** How long an answer may go on once its reader has left; then its signal aborts. Default 30 s. */
  finishWithoutReaderMs?: number;
}

const encoder = new TextEncoder();
const encodeLine = (line: AskStreamLine) => encoder.encode(`${JSON.stringify(line)}\n`);

/**
 * The answer's lines are produced into the body's queue as fast as the engine makes them (one answer:
 * a dozen lines); the HTTP writer takes them from it as the socket drains.
 *
 * @example
 * return ndjsonResponse((signal) => askStreamLines(answerQuestion(input, dependencies, signal)), { requestId, logger });
 */
export function ndjsonResponse(
  answer: (signal: AbortSignal) => AsyncIterable<AskStreamLine>,
  options: NdjsonAnswerOptions,
): Response {
  const { requestId, logger } = options;
  const abandon = new AbortController();
  let reader: ReadableStreamDefaultController<Uint8Array> | null = null;
  let readerLeft: NodeJS.Timeout | null = null;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      reader = controller;
    },
    cancel() {
      reader = null;
      readerLeft = setTimeout(() => abandon.abort(), options.finishWithoutReaderMs ?? 30_000);
    },
  });

  const started = performance.now();
  const produce = async () => {
    let lines = 0;
    try {
      for await (const line of answer(abandon.signal)) {
        reader?.enqueue(encodeLine(line));
        lines += 1;
        // Node keeps a response's writes corked while the microtask queue runs: without a turn of the
        // event loop after each line, a whole answer would go out in one burst at its end.
        await turnOfEventLoop();
      }
    } catch (error) {
      logger.error("ask stream failed", {
        requestId,
        error: String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
      reader?.enqueue(encodeLine({ type: "error", error: unexpectedProblem(error).toBody(requestId) }));
    }
    if (reader) {
      reader.close();
      return;
    }
    if (readerLeft) clearTimeout(readerLeft);
    logger.info("ask stream: the client left mid-answer; the answer was finished without it", {
      requestId,
      lines,
      ms: Math.round(performance.now() - started),
      cut_short: abandon.signal.aborted,
    });
  };
  produce().catch((error: unknown) => {
    logger.error("ask stream could not be finished", { requestId, error: String(error) });
  });

  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store",
      // Said explicitly so @hono/node-server sends the headers at once instead of first reading a
      // few lines to measure a Content-Length.
      "Transfer-Encoding": "chunked",
      "X-Accel-Buffering": "no",
      "X-Request-ID": requestId,
    },
  });
}
