/** Reading request bodies at the edge: 400 for unreadable, 413 for too large, 422 for out of bounds or unstorable text. */
import type { z } from "zod";
import { unstorableTextErrors } from "../../sdk/core/index.ts";
import { HttpProblem } from "./problem.ts";

/** A 422 naming each field whose text could not be stored; nothing when every field can be. */
export function assertStorableText(value: unknown): void {
  const errors = unstorableTextErrors(value);
  const first = errors[0];
  if (first) throw new HttpProblem(422, "invalid_input", `${first.path}: ${first.message}`, { errors });
}

export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new HttpProblem(
      400,
      "invalid_request",
      "Send the body as JSON with Content-Type: application/json.",
    );
  }
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readLimited(request, maxBytes);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new HttpProblem(400, "invalid_request", "The body is not valid UTF-8 JSON.");
  }
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body) {
    total += chunk.byteLength;
    if (total > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
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

/** Parse with a schema; text the database cannot store, and every schema issue, becomes one `errors` entry of a 422. */
export function parseWith<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  assertStorableText(input);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new HttpProblem(400, "invalid_request", "The body must be a JSON object.");
  }
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.join(".") || "(body)",
    message: issue.message,
  }));
  const first = errors[0];
  throw new HttpProblem(422, "invalid_input", first ? `${first.path}: ${first.message}` : "Invalid input.", {
    errors,
  });
}
