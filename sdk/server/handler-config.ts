/** The handler's settings, checked once at its first request: a build without the environment never reads them. */
import { z } from "zod";

/** Settings a handler cannot work without, with a hint where the setting is easy to get wrong. */
const required = {
  baseUrl: "the service's URL",
  assistantId: null,
  apiKey: null,
  allowedOrigin: "the app's origin, as the browser shows it",
  authenticate: null,
  store: null,
} as const;

const origin = z
  .string()
  .refine(
    (value) => URL.canParse(value) && new URL(value).origin === value.replace(/\/+$/, ""),
    "must be an origin such as https://app.example (scheme, host and port, no path)",
  );

const settingsSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://127.0.0.1:8787" }),
  allowedOrigin: z.union([origin, z.array(origin).min(1)]),
  mountPath: z
    .string()
    .refine((value) => value === "" || value.startsWith("/"), "must start with / (or be empty, for the root)")
    .optional(),
  maxBodyBytes: z.int().positive("must be a positive number of bytes").optional(),
  maxRetries: z.int().min(0, "must be 0 or more").optional(),
  timeoutMs: z.number().positive("must be a positive number of milliseconds").optional(),
});

function isMissing(value: unknown): boolean {
  return (
    value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)
  );
}

/** Throws an Error naming every missing setting, or else every setting of the wrong form. */
export function checkHandlerSettings(config: Record<string, unknown>): void {
  const missing = Object.entries(required)
    .filter(([name]) => isMissing(config[name]))
    .map(([name, hint]) => (hint ? `${name} (${hint})` : name));
  if (missing.length > 0) throw new Error(`createServiceHandler is missing settings: ${missing.join(", ")}.`);
  const wrong: string[] = [];
  if (typeof config.authenticate !== "function") wrong.push("authenticate must be a function");
  const parsed = settingsSchema.safeParse(config);
  if (!parsed.success) {
    const named = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      if (!named.has(name)) named.set(name, `${name} ${issue.message}`);
    }
    wrong.push(...named.values());
  }
  if (wrong.length > 0)
    throw new Error(`createServiceHandler has settings it cannot use: ${wrong.join("; ")}.`);
}
