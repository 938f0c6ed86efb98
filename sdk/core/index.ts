/** sdk/core: the wire contract (zod schemas and their types), stream reduction and the citation helpers. */

export {
  type AnswerActivity,
  type AnswerPhase,
  type AnswerState,
  type AnswerStatus,
  type AnswerUsage,
  answerActivityLimit,
  createAnswerState,
} from "./answer-state.ts";
export {
  AnswerStreamError,
  type AnswerStreamErrorOptions,
  type AnswerStreamErrorReason,
} from "./answer-stream-error.ts";
export {
  ApiConnectionError,
  ApiTimeoutError,
  AuthenticationError,
  apiErrorFrom,
  BadRequestError,
  CitedApiError,
  type CitedApiErrorOptions,
  ConflictError,
  fetchChecked,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
} from "./api-errors.ts";
export type { ByteStream } from "./byte-source.ts";
export { titleFrom } from "./conversation-title.ts";
export { CitedError } from "./errors.ts";
export { type FieldError, HttpProblem, type HttpProblemOptions, internalProblem } from "./http-problem.ts";
export { assertStorableText, type JsonBodyOptions, parseInput, readJsonBody } from "./json-body.ts";
export { limits } from "./limits.ts";
export { type AnswerMarker, type CitationMarker, type ClaimMarker, parseMarker } from "./markers.ts";
export { type MergeAnswerOptions, mergeAnswer } from "./merge-answer.ts";
export {
  createLineSplitter,
  type LineSplitter,
  type NdjsonLine,
  type NdjsonValue,
  parseNdjsonLine,
} from "./ndjson-lines.ts";
export {
  boundingRect,
  type CssBox,
  type PdfLocation,
  PdfSliceError,
  type PdfSpanLocation,
  pdfLocation,
  scaleRect,
} from "./pdf-location.ts";
export { readAnswers, reduceAnswerText } from "./read-answers.ts";
export { parseNdjson, type ReadStreamOptions, readLines } from "./read-lines.ts";
export { assertSameOrigin, newRequestId, requestIdFor } from "./request-edge.ts";
export {
  type MarkerMissReason,
  type MarkerResolution,
  type MarkerTargets,
  resolveMarker,
} from "./resolve-marker.ts";
export * from "./schemas/admin.ts";
export * from "./schemas/ask.ts";
export * from "./schemas/common.ts";
export * from "./schemas/host.ts";
export * from "./schemas/pdf.ts";
export * from "./schemas/rag.ts";
export * from "./schemas/reference.ts";
export { boundedText, characterCount } from "./schemas/text.ts";
export {
  type AnswerSegment,
  type SegmentAnswerOptions,
  segmentAnswer,
  type TextSegment,
} from "./segment-answer.ts";
export { adminBasePath, publicPaths, publicPathTemplates, routePattern } from "./service-paths.ts";
export { isStorableText, unstorableTextErrors, unstorableTextMessage } from "./storable-text.ts";
export { rowSentence } from "./table-rows.ts";
export { SDK_VERSION } from "./version.ts";
