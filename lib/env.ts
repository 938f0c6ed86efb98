/** The host app's server settings, read and validated once; the service key never reaches the browser. */
import { z } from "zod";

const serverEnvironmentSchema = z.object({
  CITED_SERVICE_URL: z.url().default("http://127.0.0.1:8787"),
  CITED_ASSISTANT_ID: z.string().optional(),
  CITED_API_KEY: z.string().optional(),
});

export type ServerEnvironment = z.infer<typeof serverEnvironmentSchema>;

export function readServerEnvironment(environment: NodeJS.ProcessEnv = process.env): ServerEnvironment {
  const parsed = serverEnvironmentSchema.safeParse(environment);
  if (!parsed.success) {
    throw new Error(
      `Invalid server environment: ${parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`,
    );
  }
  return parsed.data;
}
