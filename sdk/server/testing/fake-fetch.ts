/** Test support: a `fetch` that answers from a function and records every request it saw. */

export type Responder = (request: Request, call: number) => Response | Promise<Response>;

export interface FakeFetch {
  fetch: typeof fetch;
  requests: Request[];
}

/** Records `new Request(input, init)` (signal included) and answers with `responder`. */
export function fakeFetch(responder: Responder): FakeFetch {
  const requests: Request[] = [];
  const fetchFake = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request);
    return responder(request, requests.length);
  };
  return { fetch: fetchFake as typeof fetch, requests };
}

/** A problem-details response, as the service sends it. */
export function problemResponse(
  status: number,
  code: string,
  headers: Record<string, string> = {},
  detail = `${code} detail`,
): Response {
  return new Response(
    JSON.stringify({ type: "about:blank", title: code, status, code, detail, request_id: "req_body" }),
    {
      status,
      headers: { "Content-Type": "application/problem+json", "X-Request-ID": "req_service", ...headers },
    },
  );
}

/** A response that never arrives until the request's signal aborts (then fetch rejects, as real fetch does). */
export function hangingResponse(request: Request): Promise<Response> {
  return new Promise((_, reject) => {
    if (request.signal.aborted) reject(request.signal.reason);
    request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
  });
}

/**
 * An NDJSON body handing out `lines` one per pull, then either ending or hanging until the
 * consumer cancels. `cancelled` tells whether it was cancelled.
 */
export function ndjsonBody(
  lines: readonly string[],
  options: { hangAtEnd?: boolean; signal?: AbortSignal } = {},
): ReadableStream<Uint8Array> & { readonly cancelled: boolean } {
  const encoder = new TextEncoder();
  let index = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const line = lines[index];
        index += 1;
        if (line !== undefined) {
          controller.enqueue(encoder.encode(`${line}\n`));
          return;
        }
        if (!options.hangAtEnd) {
          controller.close();
          return;
        }
        return new Promise<void>((resolve) => {
          options.signal?.addEventListener(
            "abort",
            () => {
              controller.error(options.signal?.reason);
              resolve();
            },
            { once: true },
          );
        });
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return Object.defineProperty(stream, "cancelled", {
    get: () => cancelled,
  }) as ReadableStream<Uint8Array> & {
    readonly cancelled: boolean;
  };
}

export function ndjsonResponse(
  body: ReadableStream<Uint8Array> | string,
  headers: Record<string, string> = {},
) {
  return new Response(body, {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "X-Request-ID": "req_service",
      ...headers,
    },
  });
}
