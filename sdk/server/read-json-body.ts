/** Request bodies at the handler's edge: 413 when too large, 415/400 when unreadable, 422 when out of bounds. */
import type { z } from "zod";
import { unstorableTextErrors } from "../core/index.ts";
import { HandlerProblem } from "./handler-problem.ts";

/**
 * Reads a JSON object body of at most `maxBytes`, counting the bytes as they arrive (a missing
 * or false `Content-Length` does not get past it). An empty body reads as `{}`.
 *
 * @example
 * const body = parseBody(hostAskRequestSchema, await readJsonBody(request, 65_536));
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readLimited(request, maxBytes);
  if (bytes.byteLength === 0) return {};
  if (!/^application\/(.+\+)?json\b/i.test(request.headers.get("Content-Type") ?? "")) {
    throw new HandlerProblem(
      415,
      "unsupported_media_type",
      "Send the body as Content-Type: application/json.",
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new HandlerProblem(400, "invalid_request", "The body is not valid UTF-8 JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HandlerProblem(400, "invalid_request", "The body must be a JSON object.");
  }
  return value;
}

/**
 * Parses a body with a schema; every issue becomes one `errors` entry of a 422.
 *
 * @example
 * const { title } = parseBody(conversationCreateSchema, body);
 */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  // Checked first: a store on PostgreSQL would fail the query (U+0000) or change the text (a lone surrogate).
  const unstorable = unstorableTextErrors(body);
  const result = unstorable.length > 0 ? null : schema.safeParse(body);
  if (result?.success) return result.data;
  const errors =
    result === null
      ? unstorable
      : result.error.issues.map((issue) => ({
          path: issue.path.map(String).join(".") || "(body)",
          message: issue.message,
        }));
  const first = errors[0];
  throw new HandlerProblem(
    422,
    "invalid_input",
    first ? `${first.path}: ${first.message}` : "Invalid input.",
    {
      errors,
    },
  );
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
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

function tooLarge(maxBytes: number): HandlerProblem {
  return new HandlerProblem(413, "payload_too_large", `The body is larger than ${maxBytes} bytes.`);
}
