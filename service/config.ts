/** Service settings from the environment, validated once at start. */
import { z } from "zod";
import { type RemoteModelConfig, remoteModelEnvironmentSchema } from "./embedding/remote-config.ts";
import { keepSecrets } from "./secrets.ts";

/** Overrides of the extractive engine's calibrated settings, to draw calibration curves with. */
const engineSettingsOverrideSchema = z.strictObject({
  refusalThreshold: z.number().min(0).max(1).optional(),
  contextCredit: z.number().min(0).optional(),
  passageWeight: z.number().min(0).optional(),
  relativeFloor: z.number().min(0).max(1).optional(),
  semanticWeight: z.number().min(0).optional(),
  semanticSupport: z.strictObject({ none: z.number(), full: z.number() }).optional(),
  rerankWeight: z.number().min(0).optional(),
  rerankSupport: z.strictObject({ none: z.number(), full: z.number() }).nullable().optional(),
});

const environmentSchema = z.object({
  CKA_ADMIN_TOKEN: z.string().min(16, "CKA_ADMIN_TOKEN must be at least 16 characters").optional(),
  CKA_TOKEN_SECRET: z.string().min(32, "CKA_TOKEN_SECRET must be at least 32 characters").optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// URL")
    .optional(),
  CKA_PUBLIC_URL: z.url().optional(),
  CKA_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  CKA_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(600),
  CKA_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  CKA_OCR: z.enum(["auto", "off"]).default("auto"),
  CKA_INGEST_WORKERS: z.coerce.number().int().positive().optional(),
  CKA_INGEST_LEASE_SECONDS: z.coerce.number().int().min(3).default(60),
  CKA_REFUSAL_THRESHOLD: z.coerce.number().min(0).max(1).optional(),
  CKA_ENGINE_SETTINGS: z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: "custom", message: "CKA_ENGINE_SETTINGS must be JSON" });
        return z.NEVER;
      }
    })
    .pipe(engineSettingsOverrideSchema.optional()),
  CKA_EMBEDDINGS: z.enum(["auto", "off"]).default("auto"),
  CKA_EMBEDDING_MODEL_DIR: z.string().min(1).optional(),
  CKA_EMBEDDING_HUB_URL: z.union([z.url(), z.literal("off")]).default("https://huggingface.co"),
  CKA_LLM_BASE_URL: z.url().optional(),
  CKA_LLM_MODEL: z.string().min(1).optional(),
  CKA_LLM_API_KEY: z.string().optional(),
});

export interface ServiceConfig {
  dataDir: string;
  adminToken: string;
  tokenSecret: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  maxUploadBytes: number;
  tokenTtlSeconds: number;
  rateLimitPerMinute: number;
  ocr: boolean;
  ingestWorkers: number | undefined;
  /** How long a process may go silent on a document before another process sharing PostgreSQL takes it over. */
  ingestLeaseSeconds: number;
  /** Overrides the calibrated refusal threshold (used to draw the calibration curve). */
  refusalThreshold: number | undefined;
  /** Overrides of the engine's calibrated settings (`CKA_ENGINE_SETTINGS`, JSON). */
  engineSettings: z.infer<typeof engineSettingsOverrideSchema>;
  llm: { baseUrl: string; model: string; apiKey: string } | null;
  embedding: { enabled: boolean; folder: string | undefined; hubUrl: string | null };
  /** Model servers that replace the embedded model (embeddings) or add a reranker; null where none is set. */
  remote: RemoteModelConfig;
}

export function loadConfig(dataDir: string, environment: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const parsed = environmentSchema.safeParse(environment);
  const remote = remoteModelEnvironmentSchema.safeParse(environment);
  // One message for every setting to fix; the model server messages name their variables themselves.
  const problems = [
    ...(parsed.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? []),
    ...(remote.error?.issues.map((issue) => issue.message) ?? []),
  ];
  if (!parsed.success || !remote.success) throw new Error(problems.join("; "));
  const values = parsed.data;
  const stored = keepSecrets(dataDir, values.CKA_ADMIN_TOKEN);
  return {
    dataDir,
    adminToken: stored.adminToken,
    tokenSecret: values.CKA_TOKEN_SECRET ?? stored.tokenSecret,
    databaseUrl: values.DATABASE_URL,
    publicUrl: values.CKA_PUBLIC_URL,
    maxUploadBytes: values.CKA_MAX_UPLOAD_BYTES,
    tokenTtlSeconds: values.CKA_TOKEN_TTL_SECONDS,
    rateLimitPerMinute: values.CKA_RATE_LIMIT_PER_MINUTE,
    ocr: values.CKA_OCR === "auto",
    ingestWorkers: values.CKA_INGEST_WORKERS,
    ingestLeaseSeconds: values.CKA_INGEST_LEASE_SECONDS,
    refusalThreshold: values.CKA_REFUSAL_THRESHOLD,
    engineSettings: values.CKA_ENGINE_SETTINGS ?? {},
    embedding: {
      enabled: values.CKA_EMBEDDINGS === "auto",
      folder: values.CKA_EMBEDDING_MODEL_DIR,
      hubUrl: values.CKA_EMBEDDING_HUB_URL === "off" ? null : values.CKA_EMBEDDING_HUB_URL,
    },
    llm:
      values.CKA_LLM_BASE_URL && values.CKA_LLM_MODEL
        ? {
            baseUrl: values.CKA_LLM_BASE_URL,
            model: values.CKA_LLM_MODEL,
            apiKey: values.CKA_LLM_API_KEY ?? "none",
          }
        : null,
    remote: remote.data,
  };
}

const adminClientEnvironmentSchema = z.object({
  CKA_URL: z.url("CKA_URL must be the service's URL").default("http://127.0.0.1:8787"),
  CKA_DATA: z.string().min(1).default(".data/service"),
  // Any token is sent as given: a wrong one is the service's to refuse, in words.
  CKA_ADMIN_TOKEN: z.string().min(1).optional(),
});

export type AdminClientSettings = z.infer<typeof adminClientEnvironmentSchema>;

/** What `cka`'s admin commands read from the environment: the service's URL, its data folder, its admin token. */
export function adminClientSettings(environment: NodeJS.ProcessEnv = process.env): AdminClientSettings {
  // An empty variable counts as unset, as a shell's `CKA_ADMIN_TOKEN= cka …` means.
  const parsed = adminClientEnvironmentSchema.safeParse({
    CKA_URL: environment.CKA_URL || undefined,
    CKA_DATA: environment.CKA_DATA || undefined,
    CKA_ADMIN_TOKEN: environment.CKA_ADMIN_TOKEN || undefined,
  });
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join("; "));
  return parsed.data;
}
