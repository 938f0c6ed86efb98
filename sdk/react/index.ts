/** sdk/react: the components a person sees — an answer with its citations, and the evidence behind them. */

export {
  type AnswerPiece,
  answerPieces,
  type ChipPiece,
  type ClaimPiece,
  type NumberedReference,
  type TextPiece,
} from "./answer-pieces.ts";
export { CitedAnswer, type CitedAnswerProps, type OpenedEvidence } from "./cited-answer.tsx";
export {
  backingWords,
  type ClaimCare,
  careWords,
  citationLabel,
  claimCares,
  clockTime,
  type PageOfFile,
  pageLabel,
  pageRangeLabel,
  referenceLocation,
  sourceDetails,
  sourceName,
} from "./evidence-labels.ts";
export { ImageEvidence, type ImageEvidenceProps, type LoadImage } from "./image-evidence.tsx";
export { PdfEvidence, type PdfEvidenceProps } from "./pdf-evidence.tsx";
export { forgetPdfSlices, type LoadPdf, type PdfSlice, type PdfSliceRequest } from "./pdf-slice-cache.ts";
export type { PdfDocumentOptions } from "./pdf-slice-viewer.tsx";
export {
  type EvidenceContext,
  ReferenceEvidence,
  type ReferenceEvidenceProps,
  type RenderEvidence,
} from "./reference-evidence.tsx";
export {
  type AskLevels,
  type CitedChat,
  type CitedChatMessage,
  type CitedChatStatus,
  type CitedChatTurn,
  type UseCitedChatOptions,
  useCitedChat,
} from "./use-cited-chat.ts";
