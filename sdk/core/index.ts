/**
 * sdk/core: what a host needs from either side of the wire. The wire schemas and their types sit behind the
 * `wire` namespace (`wire.Reference`, `wire.askRequestSchema`); the rest are the answer stream's reduction, the
 * typed errors, the HTTP edge kit and the citation helpers.
 */

export { type AnswerState, type AnswerStatus, createAnswerState } from "./answer-state.ts";
export { AnswerStreamError } from "./answer-stream-error.ts";
export {
  ApiConnectionError,
  ApiTimeoutError,
  AuthenticationError,
  apiErrorFrom,
  BadRequestError,
  CitedApiError,
  ConflictError,
  fetchChecked,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
} from "./api-errors.ts";
export { titleFrom } from "./conversation-title.ts";
export { CitedError } from "./errors.ts";
export { HttpProblem, internalProblem } from "./http-problem.ts";
export { parseInput, readJsonBody } from "./json-body.ts";
export { limits } from "./limits.ts";
export { type AnswerMarker, parseMarker } from "./markers.ts";
export { mergeAnswer } from "./merge-answer.ts";
export {
  boundingRect,
  type CssBox,
  type PdfLocation,
  PdfSliceError,
  pdfLocation,
  scaleRect,
} from "./pdf-location.ts";
export { readAnswers, reduceAnswerText } from "./read-answers.ts";
export { assertSameOrigin, newRequestId, requestIdFor } from "./request-edge.ts";
export { type MarkerResolution, resolveMarker } from "./resolve-marker.ts";
export { type AnswerSegment, segmentAnswer, type TextSegment } from "./segment-answer.ts";
export { rowSentence } from "./table-rows.ts";
export { SDK_VERSION } from "./version.ts";
export * as wire from "./wire.ts";
