/** Streams lines as NDJSON: headers at once, one flushed line per object, an `error` line if it fails midway. */
import type { AskStreamLine } from "../../sdk/core/index.ts";
import type { Logger } from "../logger.ts";
import { unexpectedProblem } from "./problem.ts";

export function ndjsonResponse(
  lines: AsyncGenerator<AskStreamLine>,
  requestId: string,
  logger: Logger,
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
      } catch (error) {
        logger.error("ask stream failed", { requestId, error: String(error), stack: (error as Error).stack });
        controller.enqueue(
          encoder.encode(
            `${JSON.stringify({ type: "error", error: unexpectedProblem(error).toBody(requestId) })}\n`,
          ),
        );
        controller.close();
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
      "X-Request-ID": requestId,
    },
  });
}
