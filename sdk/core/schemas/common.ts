/** Identifiers, enums and the problem-details error body shared by every payload. */
import { z } from "zod";
import { limits } from "../limits.ts";
import { boundedText } from "./text.ts";

const prefixedId = (prefix: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9]{8,64}$`), `must be an identifier starting with ${prefix}_`);

export const assistantIdSchema = prefixedId("asst");
export const datasourceIdSchema = prefixedId("ds");
export const documentIdSchema = prefixedId("doc");
export const passageIdSchema = prefixedId("psg");
export const referenceIdSchema = prefixedId("ref");
export const messageIdSchema = prefixedId("msg");
export const keyIdSchema = prefixedId("key");

/** `{external_session}`: a caller-chosen UUID of any version. */
export const externalSessionSchema = z.guid({ error: "external_session must be a UUID" });

export const idUserSchema = boundedText("id_user", limits.idUserLength.min, limits.idUserLength.max);

export const detailLevelSchema = z.enum(["SUCCINCT", "BALANCED", "DETAILED"]);
export const technicalityLevelSchema = z.enum(["SIMPLE", "BALANCED", "TECHNICAL"]);
export const scopeSchema = z.enum(["ask", "rag"]);

export const errorCodeSchema = z.enum([
  "invalid_request",
  "app_code_required",
  "invalid_input",
  "invalid_key",
  "missing_scope",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "refresh_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "token_expired",
  "invalid_token",
  "upstream_error",
  "unavailable",
  "timeout",
  "internal_error",
]);

/** RFC 9457 problem details, as every error response carries it. */
export const problemDetailsSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.int().min(400).max(599),
  code: z.union([errorCodeSchema, z.string()]),
  detail: z.string(),
  request_id: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export type DetailLevel = z.infer<typeof detailLevelSchema>;
export type TechnicalityLevel = z.infer<typeof technicalityLevelSchema>;
export type Scope = z.infer<typeof scopeSchema>;
export type ErrorCode = z.infer<typeof errorCodeSchema>;
export type ProblemDetails = z.infer<typeof problemDetailsSchema>;
