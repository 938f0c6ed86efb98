/** The sharing area (admin API): assistants, documents, keys and the SDK share settings. */
import { z } from "zod";
import {
  assistantIdSchema,
  datasourceIdSchema,
  documentIdSchema,
  keyIdSchema,
  scopeSchema,
} from "../core/schemas/common.ts";

const assistantNameSchema = z
  .string()
  .trim()
  .min(1, "name must not be empty")
  .max(200, "name must be at most 200 characters");

export const assistantCreateSchema = z.object({ name: assistantNameSchema });

/** `PATCH /admin/v1/assistants/{id}`: a new name, with the bounds of a new assistant's. */
export const assistantRenameSchema = z.object({ name: assistantNameSchema });

export const assistantSchema = z.object({
  id: assistantIdSchema,
  name: z.string(),
  created_at: z.iso.datetime(),
});

export const assistantListSchema = z.object({ assistants: z.array(assistantSchema) });

export const documentStatusSchema = z.enum(["queued", "processing", "ready", "failed"]);

export const documentSchema = z.object({
  id: documentIdSchema,
  file_name: z.string(),
  id_datasource: datasourceIdSchema,
  datasource: z.string(),
  status: documentStatusSchema,
  error: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  bytes: z.int().min(0),
  sha256: z.string(),
  pages: z.int().min(0).optional(),
  pages_done: z.int().min(0).optional(),
  passages: z.int().min(0).optional(),
  /** Passages with vectors of the service's embedding model: found by meaning as well as by words. */
  passages_embedded: z.int().min(0).optional(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const documentListSchema = z.object({ documents: z.array(documentSchema) });

/** A group of an assistant's documents, named at upload; the chat's search filter can use its id. */
export const datasourceSchema = z.object({
  id: datasourceIdSchema,
  name: z.string(),
  /** Documents in it, whatever their state. */
  documents: z.int().min(0),
});

export const datasourceListSchema = z.object({ datasources: z.array(datasourceSchema) });

export const keyCreateSchema = z.object({
  scopes: z
    .array(scopeSchema)
    .min(1, "scopes must name ask, rag or both")
    .refine((scopes) => new Set(scopes).size === scopes.length, "scopes must not repeat"),
  name: z.string().trim().max(200).optional(),
  /** The key is refused this many seconds after it is made (a minute to a year); without it, never. */
  expires_in_seconds: z.int().min(60).max(31_536_000).optional(),
});

export const keyRecordSchema = z.object({
  id: keyIdSchema,
  id_assistant: assistantIdSchema,
  name: z.string().nullable(),
  scopes: z.array(scopeSchema),
  prefix: z.string(),
  created_at: z.iso.datetime(),
  revoked_at: z.iso.datetime().nullable(),
  /** When the key last authenticated a public request (written at most once a minute, so up to a minute behind); null if never. */
  last_used_at: z.iso.datetime().nullable(),
  /** From when the key is refused; null for a key that does not expire. */
  expires_at: z.iso.datetime().nullable(),
});

export const keyCreatedSchema = keyRecordSchema.extend({ key: z.string() });

export const keyListSchema = z.object({ keys: z.array(keyRecordSchema) });

export const shareSchema = z.object({
  assistant: assistantIdSchema,
  base_url: z.url(),
});

/** `GET /admin/v1/limits`: what a console checks before sending, so an upload is not refused halfway. */
export const limitsSchema = z.object({
  /** The largest file an upload may carry; a larger one is answered 413. */
  max_upload_bytes: z.int().positive(),
});

/**
 * `GET /admin/v1/status`: how the service finds passages. `semantic` when its embedding model is
 * loaded (by meaning and by words), `loading` while it is fetched or loaded, `lexical` without one.
 */
export const serviceStatusSchema = z.object({
  search: z.enum(["semantic", "loading", "lexical"]),
  /** The model whose vectors are searched, when there is one. */
  embedding_model: z.string().optional(),
  /** Where the model came from, what is being fetched, or why there is none. */
  detail: z.string(),
});

export type AssistantCreate = z.infer<typeof assistantCreateSchema>;
export type AssistantRename = z.infer<typeof assistantRenameSchema>;
export type Assistant = z.infer<typeof assistantSchema>;
export type DocumentStatus = z.infer<typeof documentStatusSchema>;
export type DocumentRecord = z.infer<typeof documentSchema>;
export type DatasourceRecord = z.infer<typeof datasourceSchema>;
export type KeyCreate = z.infer<typeof keyCreateSchema>;
export type KeyRecord = z.infer<typeof keyRecordSchema>;
export type KeyCreated = z.infer<typeof keyCreatedSchema>;
export type Share = z.infer<typeof shareSchema>;
export type Limits = z.infer<typeof limitsSchema>;
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;
