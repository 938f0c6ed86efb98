/** Every bound of the interface spec's section 8, at both edges. */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  askRequestSchema,
  externalSessionSchema,
  pdfRefreshRequestSchema,
  ragRequestSchema,
} from "../wire.ts";

const ask = (message: string) => ({ id_user: "user-1", message });
const rag = (extra: Record<string, unknown>) => ({ query: "how to purge packages", ...extra });
const ids = (count: number) => Array.from({ length: count }, (_, index) => `ds_source${index}abc`);

interface Case {
  bound: string;
  schema: z.ZodType;
  input: unknown;
  accepted: boolean;
  path?: string;
}

const cases: Case[] = [
  {
    bound: "message: 0 characters",
    schema: askRequestSchema,
    input: ask(""),
    accepted: false,
    path: "message",
  },
  { bound: "message: 1 character", schema: askRequestSchema, input: ask("a"), accepted: true },
  {
    bound: "message: 5,000 characters",
    schema: askRequestSchema,
    input: ask("a".repeat(5000)),
    accepted: true,
  },
  {
    bound: "message: 5,001 characters",
    schema: askRequestSchema,
    input: ask("a".repeat(5001)),
    accepted: false,
    path: "message",
  },
  {
    bound: "message: 5,000 emoji count as 5,000",
    schema: askRequestSchema,
    input: ask("😀".repeat(5000)),
    accepted: true,
  },
  { bound: "message: 5,001 emoji", schema: askRequestSchema, input: ask("😀".repeat(5001)), accepted: false },
  {
    bound: "detail_level: each value",
    schema: askRequestSchema,
    input: { ...ask("a"), detail_level: "DETAILED" },
    accepted: true,
  },
  {
    bound: "detail_level: unknown value",
    schema: askRequestSchema,
    input: { ...ask("a"), detail_level: "VERBOSE" },
    accepted: false,
    path: "detail_level",
  },
  {
    bound: "technicality_level: unknown value",
    schema: askRequestSchema,
    input: { ...ask("a"), technicality_level: "EXPERT" },
    accepted: false,
    path: "technicality_level",
  },
  {
    bound: "id_user: required",
    schema: askRequestSchema,
    input: { message: "a" },
    accepted: false,
    path: "id_user",
  },
  {
    bound: "query: 0 characters",
    schema: ragRequestSchema,
    input: rag({ query: "" }),
    accepted: false,
    path: "query",
  },
  { bound: "query: 1 character", schema: ragRequestSchema, input: rag({ query: "a" }), accepted: true },
  {
    bound: "query: 500 characters",
    schema: ragRequestSchema,
    input: rag({ query: "a".repeat(500) }),
    accepted: true,
  },
  {
    bound: "query: 501 characters",
    schema: ragRequestSchema,
    input: rag({ query: "a".repeat(501) }),
    accepted: false,
    path: "query",
  },
  {
    bound: "max_results: 0",
    schema: ragRequestSchema,
    input: rag({ max_results: 0 }),
    accepted: false,
    path: "max_results",
  },
  { bound: "max_results: 1", schema: ragRequestSchema, input: rag({ max_results: 1 }), accepted: true },
  { bound: "max_results: 20", schema: ragRequestSchema, input: rag({ max_results: 20 }), accepted: true },
  {
    bound: "max_results: 21",
    schema: ragRequestSchema,
    input: rag({ max_results: 21 }),
    accepted: false,
    path: "max_results",
  },
  {
    bound: "max_results: 2.5",
    schema: ragRequestSchema,
    input: rag({ max_results: 2.5 }),
    accepted: false,
    path: "max_results",
  },
  {
    bound: "datasource_ids: 0 entries",
    schema: ragRequestSchema,
    input: rag({ datasource_ids: [] }),
    accepted: true,
  },
  {
    bound: "datasource_ids: 50 entries",
    schema: ragRequestSchema,
    input: rag({ datasource_ids: ids(50) }),
    accepted: true,
  },
  {
    bound: "datasource_ids: 51 entries",
    schema: ragRequestSchema,
    input: rag({ datasource_ids: ids(51) }),
    accepted: false,
    path: "datasource_ids",
  },
  {
    bound: "external_session: a UUID",
    schema: externalSessionSchema,
    input: crypto.randomUUID(),
    accepted: true,
  },
  {
    bound: "external_session: not a UUID",
    schema: externalSessionSchema,
    input: "session-1",
    accepted: false,
  },
  {
    bound: "refresh: every field present",
    schema: pdfRefreshRequestSchema,
    input: {
      token: "t",
      id_reference: "ref_abcdefgh12",
      id_user: "u",
      external_session: crypto.randomUUID(),
    },
    accepted: true,
  },
  {
    bound: "refresh: missing token",
    schema: pdfRefreshRequestSchema,
    input: { id_reference: "ref_abcdefgh12", id_user: "u", external_session: crypto.randomUUID() },
    accepted: false,
    path: "token",
  },
];

describe("bounds of section 8", () => {
  it.each(cases)("$bound → accepted: $accepted", ({ schema, input, accepted, path }) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(accepted);
    if (!result.success && path)
      expect(result.error.issues.map((issue) => issue.path.join("."))).toContain(path);
  });

  it("defaults max_results to 10", () => {
    expect(ragRequestSchema.parse(rag({})).max_results).toBe(10);
  });
});
