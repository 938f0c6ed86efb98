/** The host app's server settings, read and validated once; the service key never reaches the browser. */
import "server-only";
import { z } from "zod";

const serverEnvironmentSchema = z.object({
  CITED_BASE_URL: z.url(),
  CITED_ASSISTANT_ID: z.string().regex(/^asst_[A-Za-z0-9_-]+$/, "must be an assistant id (asst_…)"),
  CITED_API_KEY: z.string().min(16, "must be the assistant's API key"),
  CITED_APP_ORIGIN: z.url().default("http://localhost:3000"),
  CITED_SESSION_SECRET: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, "must be 32 random bytes in hex (openssl rand -hex 32)"),
  CITED_DEV_SIGN_IN: z.enum(["allow"]).optional(),
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
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
});

export type ServerEnvironment = z.infer<typeof serverEnvironmentSchema>;

/** A setting that is missing or malformed, named so that the person starting the app can fix it. */
export class EnvironmentError extends Error {
  override readonly name = "EnvironmentError";
}

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

/** What is wrong with this process's settings, in words for the person starting the app; null when nothing. */
export function settingsProblem(): string | null {
  try {
    serverEnvironment();
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

/** The development sign-in runs in development, and in production only when explicitly allowed. */
export function devSignInAllowed(
  environment: Pick<ServerEnvironment, "NODE_ENV" | "CITED_DEV_SIGN_IN">,
): boolean {
  return environment.NODE_ENV !== "production" || environment.CITED_DEV_SIGN_IN === "allow";
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
