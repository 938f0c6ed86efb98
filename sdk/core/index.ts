/** sdk/core: the wire contract (zod schemas and their types) and the citation helpers. */
export { limits } from "./limits.ts";
export * from "./schemas/admin.ts";
export * from "./schemas/ask.ts";
export * from "./schemas/common.ts";
export * from "./schemas/pdf.ts";
export * from "./schemas/rag.ts";
export * from "./schemas/reference.ts";
export { boundedText, characterCount } from "./schemas/text.ts";
export { SDK_VERSION } from "./version.ts";
