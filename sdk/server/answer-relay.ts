/** Relays a service answer stream to the browser as SDK updates, and saves the answer however the stream ends. */

import { type AnswerState, AnswerStreamError, createAnswerState, readAnswers } from "../core/index.ts";
import type { ProblemDetails, ServiceUpdate } from "../core/wire.ts";

export interface AnswerRelayOptions {
  /** The service's NDJSON body. */
  upstream: ReadableStream<Uint8Array>;
  /** Aborts when the browser leaves (the request's signal) or `stop` is called. */
  signal: AbortSignal;
  /** Aborts the service call. */
  stop(): void;
  /** Stores the answer (once) and returns its message id. */
  save(answer: AnswerState, partial: boolean): Promise<string>;
  /** Receives failures nobody else will see: a broken service stream, a failed save. */
  onError(error: unknown): void;
  requestId: string;
}

/**
 * The body of the handler's ask response: one `{"type":"answer"}` line per snapshot, then
 * `{"type":"saved","messageId"}` once the final answer is stored. If the browser disconnects
 * (the stream is cancelled or the request aborts), the service call is aborted and the answer so
 * far is saved as partial. If the service stream breaks, the browser gets a last answer in phase
 * `error` (saved as partial) before `saved`. Pulled one line at a time: nothing is read from the
 * service faster than the browser reads.
 *
 * @example
 * return new Response(relayAnswers({ upstream: stream.body, signal, stop, save, onError, requestId }), {
 *   headers: { "Content-Type": "application/x-ndjson" },
 * });
 */
export function relayAnswers(options: AnswerRelayOptions): ReadableStream<Uint8Array> {
  const answers = readAnswers(options.upstream, { signal: options.signal });
  const encoder = new TextEncoder();
  let latest = createAnswerState();
  let closed = false;
  let saving: Promise<string> | null = null;

  const save = (answer: AnswerState, partial: boolean) => {
    saving ??= options.save(answer, partial);
    return saving;
  };
  /** The browser is gone: stop the service and keep what arrived. */
  const leave = async () => {
    options.stop();
    try {
      await save(latest, latest.phase !== "done");
    } catch (error) {
      options.onError(error);
    }
  };
  options.signal.addEventListener("abort", () => void leave(), { once: true });

  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, update: ServiceUpdate) => {
    if (!closed) controller.enqueue(encoder.encode(`${JSON.stringify(update)}\n`));
  };
  const close = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (closed) return;
    closed = true;
    controller.close();
  };
  const finish = async (controller: ReadableStreamDefaultController<Uint8Array>, partial: boolean) => {
    try {
      emit(controller, { type: "saved", messageId: await save(latest, partial) });
    } catch (error) {
      options.onError(error);
      latest = withError(latest, unsavedProblem(options.requestId));
      emit(controller, { type: "answer", answer: latest });
    }
    close(controller);
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: IteratorResult<AnswerState>;
        try {
          next = await answers.next();
        } catch (error) {
          if (options.signal.aborted) {
            await leave();
            close(controller);
            return;
          }
          options.onError(error);
          const reached = AnswerStreamError.isInstance(error) && error.state ? error.state : latest;
          latest = withError(reached, brokenProblem(options.requestId));
          emit(controller, { type: "answer", answer: latest });
          await finish(controller, true);
          return;
        }
        if (next.done) {
          await finish(controller, latest.phase !== "done");
          return;
        }
        latest = next.value;
        emit(controller, { type: "answer", answer: latest });
      },
      async cancel() {
        closed = true;
        await leave();
        await answers.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

function withError(answer: AnswerState, error: ProblemDetails): AnswerState {
  return { ...answer, phase: "error", error };
}

function brokenProblem(requestId: string): ProblemDetails {
  return {
    type: "about:blank",
    title: "Bad gateway",
    status: 502,
    code: "upstream_error",
    detail: "The answer stream from the knowledge service broke off.",
    request_id: requestId,
  };
}

function unsavedProblem(requestId: string): ProblemDetails {
  return {
    type: "about:blank",
    title: "Internal error",
    status: 500,
    code: "internal_error",
    detail: "The answer could not be saved.",
    request_id: requestId,
  };
}
