/**
 * The wire contract between a host and the service: zod schemas and their types for ask, rag, PDF slices,
 * references and the host endpoint. Hosts reach it as the `wire` namespace of sdk/core.
 */
export * from "./schemas/ask.ts";
export * from "./schemas/common.ts";
export * from "./schemas/host.ts";
export * from "./schemas/pdf.ts";
export * from "./schemas/rag.ts";
export * from "./schemas/reference.ts";
