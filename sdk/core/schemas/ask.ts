/** The ask request and every line of its NDJSON answer stream. */
import { z } from "zod";
import { limits } from "../limits.ts";
import {
  detailLevelSchema,
  idUserSchema,
  messageIdSchema,
  problemDetailsSchema,
  referenceIdSchema,
  technicalityLevelSchema,
} from "./common.ts";
import { claimSchema, referenceSchema } from "./reference.ts";
import { boundedText } from "./text.ts";

export const askRequestSchema = z.object({
  id_user: idUserSchema,
  message: boundedText("message", limits.messageLength.min, limits.messageLength.max),
  detail_level: detailLevelSchema.optional(),
  technicality_level: technicalityLevelSchema.optional(),
});

export const statusLineSchema = z.looseObject({
  type: z.literal("status"),
  stage: z.enum(["retrieving", "reading", "composing", "verifying"]),
  message: z.string(),
});

export const activityLineSchema = z.looseObject({
  type: z.literal("activity"),
  name: z.string(),
  detail: z.record(z.string(), z.unknown()),
});

export const utteranceLineSchema = z.looseObject({
  type: z.literal("utterance"),
  id_message: messageIdSchema,
  text: z.string(),
  claims: z.array(claimSchema).default([]),
  references: z.array(referenceSchema).default([]),
  numbering: z.record(referenceIdSchema, z.int().min(1)).default({}),
});

export const doneLineSchema = z.looseObject({
  type: z.literal("done"),
  id_message: messageIdSchema,
  refusal: z.boolean(),
  usage: z.object({ passages_read: z.int().min(0), ms: z.number().min(0) }),
});

export const errorLineSchema = z.looseObject({
  type: z.literal("error"),
  error: problemDetailsSchema,
});

export const askStreamLineSchema = z.discriminatedUnion("type", [
  statusLineSchema,
  activityLineSchema,
  utteranceLineSchema,
  doneLineSchema,
  errorLineSchema,
]);

export const askStreamLineTypes = ["status", "activity", "utterance", "done", "error"] as const;

export type AskRequest = z.infer<typeof askRequestSchema>;
export type StatusLine = z.infer<typeof statusLineSchema>;
export type ActivityLine = z.infer<typeof activityLineSchema>;
export type UtteranceLine = z.infer<typeof utteranceLineSchema>;
export type DoneLine = z.infer<typeof doneLineSchema>;
export type ErrorLine = z.infer<typeof errorLineSchema>;
export type AskStreamLine = z.infer<typeof askStreamLineSchema>;
