/** Raw HTTP calls to the public API as a host backend makes them, with every header overridable, and the checks every error response must pass. */
import { expect } from "vitest";
import { type ErrorCode, type ProblemDetails, problemDetailsSchema } from "../../sdk/core/wire.ts";

export interface PublicCall {
  method?: "GET" | "POST";
  path: string;
  /** Sent as `Authorization: Bearer <key>`; null sends no Authorization header. */
  key: string | null;
  /** JSON-encoded, unless it is already a string, bytes or a stream (sent as is). */
  body?: unknown;
  /** Added to, or (null) removed from, the defaults `X-App-Code: selfserve` and `Content-Type: application/json`. */
  headers?: Record<string, string | null>;
}

/** `send`: how the request goes out; default the global fetch (an in-process service passes its app's). */
export function callPublic(baseUrl: string, call: PublicCall, send: typeof fetch = fetch): Promise<Response> {
  const headers: Record<string, string> = { "X-App-Code": "selfserve" };
  if (call.key !== null) headers.Authorization = `Bearer ${call.key}`;
  if (call.body !== undefined) headers["Content-Type"] = "application/json";
  for (const [name, value] of Object.entries(call.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  const body = encodeBody(call.body);
  return send(`${baseUrl}${call.path}`, {
    method: call.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    ...(body === undefined ? {} : { body }),
    // A stream body goes out chunked, without Content-Length; fetch wants this said.
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  });
}

function encodeBody(body: unknown): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (typeof body === "string" || body instanceof ReadableStream) return body;
  // Copied, so the bytes sit in a plain ArrayBuffer as fetch's typings want.
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return JSON.stringify(body);
}

/** Stack frames as Node prints them, and source paths: none may reach a client. */
const stackTrace = /\n\s+at |\bat [\w$.<>]+ \(|node:internal|\.ts:\d+|node_modules/;

/**
 * Checks an error response as every public error must look: the status, RFC 9457 problem details
 * as `application/problem+json`, its `request_id` equal to the `X-Request-ID` header, no stack trace.
 */
export async function expectProblem(
  response: Response,
  status: number,
  code?: ErrorCode,
): Promise<ProblemDetails> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/problem\+json\b/);
  expect(text).not.toMatch(stackTrace);
  const problem = problemDetailsSchema.parse(JSON.parse(text));
  expect(problem.status).toBe(status);
  if (code) expect(problem.code).toBe(code);
  expect(problem.request_id).toBeTruthy();
  expect(problem.request_id).toBe(response.headers.get("X-Request-ID"));
  return problem;
}
