/** Service settings from the environment, validated once at start. */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { type RemoteModelConfig, remoteModelEnvironmentSchema } from "./embedding/remote-config.ts";

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

interface Secrets {
  adminToken: string;
  tokenSecret: string;
}

/**
 * Secrets are made once and kept (mode 0600) in the data folder. An admin token given in the environment
 * replaces the kept one, so the file always holds the token in force: `cka --data` and scripts read it there.
 */
function dataDirSecrets(dataDir: string, adminTokenInForce: string | undefined): Secrets {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "secrets.json");
  const existed = existsSync(path);
  const kept: Secrets = existed
    ? (JSON.parse(readFileSync(path, "utf8")) as Secrets)
    : {
        adminToken: randomBytes(24).toString("base64url"),
        tokenSecret: randomBytes(32).toString("base64url"),
      };
  const secrets = { ...kept, adminToken: adminTokenInForce ?? kept.adminToken };
  if (!existed || secrets.adminToken !== kept.adminToken) {
    writeFileSync(path, JSON.stringify(secrets), { mode: 0o600 });
  }
  return secrets;
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
  const stored = dataDirSecrets(dataDir, values.CKA_ADMIN_TOKEN);
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
