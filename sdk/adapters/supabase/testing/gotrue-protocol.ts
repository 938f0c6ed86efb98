/**
 * Test support: GoTrue's wire for the GoTrue stand-in: the request bodies it reads, its error type and
 * the error JSON it answers with, and the PKCE check.
 */
import { createHash } from "node:crypto";
import { z } from "zod";

/** GoTrue's error: an HTTP status, an error code from auth-js's list, a message, and any extra fields. */
export class GoTrueError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;

  constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

const metadataSchema = z.record(z.string(), z.unknown()).nullish();
const pkceFields = { code_challenge: z.string().nullish(), code_challenge_method: z.string().nullish() };
export const signupSchema = z.looseObject({
  email: z.string(),
  password: z.string(),
  data: metadataSchema,
  ...pkceFields,
});
export const passwordGrantSchema = z.looseObject({ email: z.string(), password: z.string() });
export const refreshGrantSchema = z.looseObject({ refresh_token: z.string() });
export const pkceGrantSchema = z.looseObject({ auth_code: z.string(), code_verifier: z.string() });
export const otpSchema = z.looseObject({
  email: z.string(),
  create_user: z.boolean().optional(),
  data: metadataSchema,
  ...pkceFields,
});
export const verifySchema = z.union([
  z.looseObject({ type: z.string(), token_hash: z.string() }),
  z.looseObject({ type: z.string(), email: z.string(), token: z.string() }),
]);
export const emailLinkTypes = new Set(["email", "magiclink", "signup"]);
export const invalidLink = () => new GoTrueError(403, "otp_expired", "Token has expired or is invalid");

/** GoTrue answers in the error shape of the API version the client asked for (auth-js asks 2024-01-01). */
export function goTrueErrorResponse(request: Request, error: GoTrueError): Response {
  const modern = (request.headers.get("X-Supabase-Api-Version") ?? "") >= "2024-01-01";
  const body = modern
    ? { code: error.code, msg: error.message, ...error.extra }
    : { code: error.status, error_code: error.code, msg: error.message, ...error.extra };
  return Response.json(body, { status: error.status, headers: { "X-Supabase-Api-Version": "2024-01-01" } });
}

export async function readBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.output<Schema>> {
  let json: unknown;
  try {
    json = await request.json();
  } catch (error) {
    throw new GoTrueError(400, "bad_json", `Could not parse request body as JSON: ${String(error)}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new GoTrueError(400, "validation_failed", z.prettifyError(parsed.error));
  return parsed.data;
}

export function normalizedEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!z.email().safeParse(trimmed).success) {
    throw new GoTrueError(400, "validation_failed", "Unable to validate email address: invalid format");
  }
  return trimmed;
}

export function codeChallengeOf(body: {
  code_challenge?: string | null;
  code_challenge_method?: string | null;
}) {
  return body.code_challenge
    ? { challenge: body.code_challenge, method: body.code_challenge_method ?? "s256" }
    : null;
}

export function matchesChallenge(verifier: string, saved: { challenge: string; method: string }): boolean {
  const derived =
    saved.method.toLowerCase() === "plain"
      ? verifier
      : createHash("sha256").update(verifier).digest("base64url");
  return derived === saved.challenge;
}
