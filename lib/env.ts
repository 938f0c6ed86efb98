/**
 * The host app's server settings, read and validated once; the service key never reaches the browser.
 * They also choose the app's mode: Supabase (Auth signs users in, the store is the project's
 * Postgres under row-level security) when SUPABASE_URL and SUPABASE_PUBLISHABLE_KEY are set,
 * otherwise embedded (the development sign-in and PGlite).
 */
import "server-only";
import { decodeJwt } from "jose";
import { z } from "zod";
import { parseConsoleSettings } from "./console/env.ts";
import { EnvironmentError } from "./environment-error.ts";
import { type SupabaseProject, servedOverHttps } from "./supabase/project.ts";

/** Set to the empty string counts as not set, so a test or a shell can switch a setting off. */
const unlessBlank = <Schema extends z.ZodType>(schema: Schema) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const sessionSecretSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/i, "must be 32 random bytes in hex (openssl rand -hex 32)");

/**
 * The publishable (or legacy anon) key is handed to every browser, so a secret or service-role key
 * here would give anyone the whole database: refused.
 */
const publishableKeySchema = z
  .string()
  .min(1)
  .refine((key) => !key.startsWith("sb_secret_"), "is a secret key; use the project's publishable key")
  .refine((key) => legacyKeyRole(key) !== "service_role", "is the service_role key; use the anon key");

function legacyKeyRole(key: string): unknown {
  if (!key.startsWith("eyJ")) return undefined;
  try {
    return decodeJwt(key).role;
  } catch {
    // Not a JWT after all: whatever it is, it is not a service-role JWT.
    return undefined;
  }
}

const serverSettingsSchema = z.object({
  CITED_BASE_URL: z.url(),
  CITED_ASSISTANT_ID: z.string().regex(/^asst_[A-Za-z0-9_-]+$/, "must be an assistant id (asst_…)"),
  CITED_API_KEY: z.string().min(16, "must be the assistant's API key"),
  CITED_APP_ORIGIN: z.url().default("http://localhost:3000"),
  CITED_SESSION_SECRET: unlessBlank(sessionSecretSchema),
  CITED_DEV_SIGN_IN: unlessBlank(z.enum(["allow"])),
  CITED_APP_DATA_DIR: z.string().min(1).default(".data/app"),
  /** Datasources the search page offers as filters: `Name=ds_…` pairs, comma-separated. */
  CITED_DATASOURCES: z
    .string()
    .default("")
    .transform((setting, context) => {
      try {
        return datasourceOptions(setting);
      } catch (error) {
        context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
        return z.NEVER;
      }
    }),
  SUPABASE_URL: unlessBlank(z.url()),
  SUPABASE_PUBLISHABLE_KEY: unlessBlank(publishableKeySchema),
  /** Only for projects still signing with the legacy shared secret (HS256); others use the JWKS. */
  SUPABASE_JWT_SECRET: unlessBlank(
    z.string().min(32, "must be the project's JWT secret (32 characters or more)"),
  ),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
});

/** How users sign in, and where their conversations are kept. */
export type AuthMode =
  | { kind: "embedded"; sessionSecret: string }
  | (SupabaseProject & { kind: "supabase"; jwtSecret: string | undefined });

const serverEnvironmentSchema = serverSettingsSchema.transform((settings, context) => {
  const { CITED_SESSION_SECRET, SUPABASE_URL, SUPABASE_PUBLISHABLE_KEY, SUPABASE_JWT_SECRET, ...rest } =
    settings;
  const anySupabaseSetting = [SUPABASE_URL, SUPABASE_PUBLISHABLE_KEY, SUPABASE_JWT_SECRET].some(
    (setting) => setting !== undefined,
  );
  if (anySupabaseSetting) {
    // Half a Supabase configuration would quietly fall back to the development sign-in: refused.
    if (SUPABASE_URL === undefined || SUPABASE_PUBLISHABLE_KEY === undefined) {
      context.addIssue({
        code: "custom",
        path: [SUPABASE_URL === undefined ? "SUPABASE_URL" : "SUPABASE_PUBLISHABLE_KEY"],
        message: "is missing: Supabase mode needs both SUPABASE_URL and SUPABASE_PUBLISHABLE_KEY",
      });
      return z.NEVER;
    }
    const auth: AuthMode = {
      kind: "supabase",
      url: projectUrl(SUPABASE_URL),
      publishableKey: SUPABASE_PUBLISHABLE_KEY,
      secureCookies: servedOverHttps(rest.CITED_APP_ORIGIN),
      jwtSecret: SUPABASE_JWT_SECRET,
    };
    return { ...rest, auth };
  }
  if (CITED_SESSION_SECRET === undefined) {
    context.addIssue({
      code: "custom",
      path: ["CITED_SESSION_SECRET"],
      message: "is required for the development sign-in (or set SUPABASE_URL and SUPABASE_PUBLISHABLE_KEY)",
    });
    return z.NEVER;
  }
  const auth: AuthMode = { kind: "embedded", sessionSecret: CITED_SESSION_SECRET };
  return { ...rest, auth };
});

export type ServerEnvironment = z.infer<typeof serverEnvironmentSchema>;

export function parseServerEnvironment(environment: Record<string, string | undefined>): ServerEnvironment {
  const parsed = serverEnvironmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    throw new EnvironmentError(
      `The app's settings are incomplete: ${problems.join("; ")}. See .env.example, or run npm run dev.`,
    );
  }
  return parsed.data;
}

let cached: ServerEnvironment | undefined;

/** The settings of this process (validated on first use, then kept). */
export function serverEnvironment(): ServerEnvironment {
  cached ??= parseServerEnvironment(process.env);
  return cached;
}

/**
 * What is wrong with the settings (this process's by default), the console's included, in words for
 * the person starting the app; null when nothing. A half-set console would otherwise fail every page.
 */
export function settingsProblem(
  environment: Record<string, string | undefined> = process.env,
): string | null {
  try {
    if (environment === process.env) serverEnvironment();
    else parseServerEnvironment(environment);
    parseConsoleSettings(environment);
    return null;
  } catch (error) {
    if (error instanceof EnvironmentError) return error.message;
    throw error;
  }
}

export interface DatasourceOption {
  id: string;
  name: string;
}

/** `Manuals=ds_a,Notes=ds_b` → the options of the search page's filter. */
export function datasourceOptions(setting: string): DatasourceOption[] {
  return setting
    .split(",")
    .map((pair) => pair.trim())
    .filter((pair) => pair !== "")
    .map((pair) => {
      const separator = pair.lastIndexOf("=");
      const name = pair.slice(0, separator).trim();
      const id = pair.slice(separator + 1).trim();
      if (separator <= 0 || !/^ds_[A-Za-z0-9_-]+$/.test(id)) {
        throw new EnvironmentError(`CITED_DATASOURCES: "${pair}" is not Name=ds_…`);
      }
      return { id, name };
    });
}

/**
 * The development sign-in runs in embedded mode only: in development, and in production only when
 * explicitly allowed. With Supabase configured it is off, whatever CITED_DEV_SIGN_IN says.
 */
export function devSignInAllowed(
  environment: Pick<ServerEnvironment, "NODE_ENV" | "CITED_DEV_SIGN_IN" | "auth">,
): boolean {
  if (environment.auth.kind !== "embedded") return false;
  return environment.NODE_ENV !== "production" || environment.CITED_DEV_SIGN_IN === "allow";
}

/**
 * The Supabase project alone, for the proxy, which must not stop a page that would explain a
 * setting problem: null unless both settings are there and valid.
 */
export function supabaseProjectSettings(
  environment: Record<string, string | undefined>,
): SupabaseProject | null {
  const parsed = serverSettingsSchema
    .pick({ SUPABASE_URL: true, SUPABASE_PUBLISHABLE_KEY: true })
    .safeParse(environment);
  if (!parsed.success) return null;
  const { SUPABASE_URL: url, SUPABASE_PUBLISHABLE_KEY: publishableKey } = parsed.data;
  if (url === undefined || publishableKey === undefined) return null;
  // Unset, CITED_APP_ORIGIN defaults to http://localhost:3000: not https.
  const secureCookies = servedOverHttps(environment.CITED_APP_ORIGIN ?? "");
  return { url: projectUrl(url), publishableKey, secureCookies };
}

/** Without a trailing slash, so `${url}/auth/v1` is the issuer Supabase Auth writes in its tokens. */
function projectUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

/** The Supabase project of this process, with its JWT secret (server only), or null in embedded mode. */
export function supabaseProject(): Extract<AuthMode, { kind: "supabase" }> | null {
  const { auth } = serverEnvironment();
  return auth.kind === "supabase" ? auth : null;
}

/**
 * What the browser may learn of the Supabase project (URL, publishable key, cookie security), never
 * the JWT secret; null in embedded mode. Picked field by field, so a new secret setting stays out.
 */
export function browserSupabaseProject(auth: AuthMode): SupabaseProject | null {
  if (auth.kind !== "supabase") return null;
  return { url: auth.url, publishableKey: auth.publishableKey, secureCookies: auth.secureCookies };
}

/**
 * The origins the route handler accepts: CITED_APP_ORIGIN, and in development its loopback twin
 * (localhost ↔ 127.0.0.1), since a developer opens either.
 */
export function allowedOrigins(
  environment: Pick<ServerEnvironment, "NODE_ENV" | "CITED_APP_ORIGIN">,
): string[] {
  const origin = new URL(environment.CITED_APP_ORIGIN).origin;
  if (environment.NODE_ENV === "production") return [origin];
  const url = new URL(origin);
  const twin = { localhost: "127.0.0.1", "127.0.0.1": "localhost" }[url.hostname];
  if (twin === undefined) return [origin];
  url.hostname = twin;
  return [origin, url.origin];
}
