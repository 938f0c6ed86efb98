/**
 * Requests Node's HTTP parser refuses before the app sees them (a malformed request line, bad header bytes, a
 * header block too large, bad chunked encoding) still get problem details with a request id, then the connection
 * closes: after a parse error nothing later on it can be trusted to be a request.
 */

import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { RequestError } from "@hono/node-server";
import { HttpProblem, internalProblem, newRequestId } from "../../sdk/core/index.ts";
import type { ErrorCode } from "../../sdk/core/wire.ts";
import type { Logger } from "../logger.ts";

interface ParserError extends Error {
  code?: string;
}

const refusals: Record<string, { status: number; code: ErrorCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: "invalid_request",
    detail: "The request's header block is larger than the service accepts.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: "timeout",
    detail: "The request did not arrive in time.",
  },
};

const malformed = {
  status: 400,
  code: "invalid_request" as const,
  detail: "The request is not well-formed HTTP/1.1.",
};

/** Meant for the Node server's `clientError` event, which leaves writing an answer to the raw socket to us. */
export function answerClientError(error: ParserError, socket: Duplex, logger: Logger): void {
  // Node's own rule: never write over a response already under way on this connection.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const refusal = refusals[error.code ?? ""] ?? malformed;
  const requestId = newRequestId();
  logger.warn("request refused by the HTTP parser", { requestId, code: error.code, error: error.message });
  const body = JSON.stringify(
    new HttpProblem(refusal.status, refusal.code, refusal.detail).toBody(requestId),
  );
  socket.end(
    [
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}`,
      "Content-Type: application/problem+json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-ID: ${requestId}`,
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
  );
}

/**
 * For @hono/node-server's `errorHandler`: a request Node parsed but the adapter cannot turn into a URL (a
 * backslash in the path, a Host that is no host) is the client's 400; anything else there is ours.
 */
export function answerAdapterError(error: unknown, logger: Logger): Response {
  const requestId = newRequestId();
  if (error instanceof RequestError) {
    logger.warn("request refused by the HTTP adapter", { requestId, error: error.message });
    return new HttpProblem(
      400,
      "invalid_request",
      "The request's path or Host header is not a valid URL.",
    ).toResponse(requestId);
  }
  logger.error("the HTTP adapter failed", { requestId, error: String(error) });
  return internalProblem().toResponse(requestId);
}
