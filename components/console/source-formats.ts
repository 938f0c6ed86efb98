/**
 * What the file picker offers: the formats the service reads (service/ingest: PDF, images read with
 * OCR, and the text readers' extensions). The service stays the judge: any other file is refused there with a reason.
 */
export const sourceFormats = [
  ".pdf",
  ".png",
  ".jpg",
  ".jpeg",
  ".tif",
  ".tiff",
  ".webp",
  ".md",
  ".markdown",
  ".mdown",
  ".mkd",
  ".txt",
  ".text",
  ".html",
  ".htm",
  ".xhtml",
  ".csv",
  ".tsv",
  ".tab",
  ".vtt",
  ".srt",
  ".json",
  ".jsonl",
  ".ndjson",
  ".docx",
  ".pptx",
  ".xlsx",
  ".ods",
  ".epub",
] as const;

export const sourceFormatsSummary =
  "PDF, Word (DOCX), PowerPoint (PPTX), Excel (XLSX), Calc (ODS), EPUB, images (PNG, JPEG, TIFF, WebP; read with OCR), Markdown, text, HTML, CSV/TSV, WebVTT/SRT transcripts, JSON/JSON Lines";
