/**
 * The console's server settings: where the service's sharing area is, its admin token, and who may
 * use it. Kept apart from lib/env.ts because an app without them still chats; it only has no console.
 */
import "server-only";
import { z } from "zod";
import { EnvironmentError } from "../environment-error.ts";

const consoleEnvironmentSchema = z.object({
  CITED_ADMIN_URL: z.url().optional(),
  CITED_ADMIN_TOKEN: z.string().min(16, "must be the service's admin token").optional(),
  /** User ids allowed in the console, comma-separated. */
  CITED_OPERATORS: z
    .string()
    .default("")
    .transform((setting) =>
      setting
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id !== "")
        .map(operatorIdKey),
    ),
  // Unset counts as production here: a host started without NODE_ENV must not open the console to
  // every signed-in user (`next dev`, which `npm run dev` runs, sets development itself).
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
});

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user id as operators are compared: Supabase's UUIDs in any case are one id, user names are exact. */
export function operatorIdKey(id: string): string {
  return uuidPattern.test(id) ? id.toLowerCase() : id;
}

/** Who the console lets in: the listed user ids, or (development without a list) anyone signed in. */
export type Operators = { kind: "listed"; ids: readonly string[] } | { kind: "everyone-in-development" };

export interface ConsoleSettings {
  /** The service's base URL, without a trailing slash; the admin API is under `/admin/v1`. */
  adminUrl: string;
  adminToken: string;
  operators: Operators;
}

/**
 * The console's settings, or null when the app has no console (no admin URL and token). One of the
 * two without the other, or a malformed value, is a mistake the person starting the app must see.
 */
export function parseConsoleSettings(
  environment: Record<string, string | undefined>,
): ConsoleSettings | null {
  const parsed = consoleEnvironmentSchema.safeParse({
    ...environment,
    CITED_ADMIN_URL: environment.CITED_ADMIN_URL || undefined,
    CITED_ADMIN_TOKEN: environment.CITED_ADMIN_TOKEN || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    throw new EnvironmentError(`The console's settings are wrong: ${problems.join("; ")}. See .env.example.`);
  }
  const { CITED_ADMIN_URL: adminUrl, CITED_ADMIN_TOKEN: adminToken, CITED_OPERATORS: ids } = parsed.data;
  if (adminUrl === undefined && adminToken === undefined) return null;
  if (adminUrl === undefined || adminToken === undefined) {
    throw new EnvironmentError(
      "The console needs both CITED_ADMIN_URL and CITED_ADMIN_TOKEN (or neither, for an app without a console).",
    );
  }
  const operators: Operators =
    ids.length === 0 && parsed.data.NODE_ENV === "development"
      ? { kind: "everyone-in-development" }
      : { kind: "listed", ids };
  return { adminUrl: adminUrl.replace(/\/+$/, ""), adminToken, operators };
}

let cached: { settings: ConsoleSettings | null } | undefined;

/** This process's console settings (validated on first use, then kept); null: no console. */
export function consoleSettings(): ConsoleSettings | null {
  cached ??= { settings: parseConsoleSettings(process.env) };
  return cached.settings;
}
