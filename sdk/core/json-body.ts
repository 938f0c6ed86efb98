/**
 * Request bodies at any HTTP edge (the service, the SDK's handler, a host's routes): a JSON object of at most
 * `maxBytes`, counted as the bytes arrive (a missing or false `Content-Length` does not get past it), then
 * parsed with a schema. Unreadable is 400, too large 413, out of bounds or unstorable text 422.
 */
import type { z } from "zod";
import { HttpProblem } from "./http-problem.ts";
import { unstorableTextErrors } from "./storable-text.ts";

export interface JsonBodyOptions {
  maxBytes: number;
  /** An empty body reads as `{}` (a POST whose fields are all optional); otherwise it is a 400. */
  allowEmpty?: boolean;
}

/**
 * @example
 * const input = parseInput(askRequestSchema, await readJsonBody(request, { maxBytes: 65_536 }));
 */
export async function readJsonBody(request: Request, options: JsonBodyOptions): Promise<object> {
  const { maxBytes } = options;
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readLimited(request, maxBytes);
  if (bytes.byteLength === 0 && options.allowEmpty) return {};
  if (!/^application\/(.+\+)?json\b/i.test(request.headers.get("Content-Type") ?? "")) {
    throw new HttpProblem(
      400,
      "invalid_request",
      "Send the body as JSON with Content-Type: application/json.",
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new HttpProblem(400, "invalid_request", "The body is not valid UTF-8 JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HttpProblem(400, "invalid_request", "The body must be a JSON object.");
  }
  return value;
}

/** A 422 naming each field whose text could not be stored; nothing when every field can be. */
export function assertStorableText(value: unknown): void {
  const errors = unstorableTextErrors(value);
  const first = errors[0];
  if (first) throw new HttpProblem(422, "invalid_input", `${first.path}: ${first.message}`, { errors });
}

/**
 * Parses request input (a JSON body, query parameters) with a schema: text a database cannot store (U+0000, a lone surrogate) and every schema
 * issue become `errors` entries of one 422.
 *
 * @example
 * const { title } = parseInput(conversationCreateSchema, await readJsonBody(request, { maxBytes: 65_536 }));
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  assertStorableText(input);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
  const first = errors[0];
  throw new HttpProblem(422, "invalid_input", first ? `${first.path}: ${first.message}` : "Invalid input.", {
    errors,
  });
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(maxBytes: number): HttpProblem {
  return new HttpProblem(413, "payload_too_large", `The body is larger than ${maxBytes} bytes.`);
}
