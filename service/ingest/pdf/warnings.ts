/** Plain-language notes about pages that could not be read, or were read with OCR. */
import type { PageResult } from "./read-page.ts";

export interface OcrStatus {
  ocrRequested: boolean;
  ocrInstalled: boolean;
}

/** Why a document without any text cannot be ingested. */
export function noTextMessage(ocr: OcrStatus): string {
  if (ocr.ocrInstalled) return "No readable text was found in the PDF, even with OCR.";
  const why = ocr.ocrRequested ? "OCR is not installed on the server" : "OCR is turned off";
  return `The PDF contains only images (no text) and ${why}, so it cannot be searched.`;
}

/** "3, 5–7, 12" with 1-based page numbers, shortened after ten groups. */
function formatPageList(indices: readonly number[]): string {
  const groups: string[] = [];
  let index = 0;
  while (index < indices.length) {
    const first = indices[index] as number;
    let last = first;
    while (indices[index + 1] === last + 1) {
      last++;
      index++;
    }
    groups.push(first === last ? `${first + 1}` : `${first + 1}–${last + 1}`);
    index++;
  }
  return groups.length > 10 ? `${groups.slice(0, 10).join(", ")} and more` : groups.join(", ");
}

function countPages(count: number): string {
  return count === 1 ? "1 page" : `${count} pages`;
}

export function pageWarnings(results: readonly PageResult[], ocr: OcrStatus): string[] {
  const warnings: string[] = [];
  const indices = (keep: (page: PageResult) => boolean): number[] =>
    results.filter(keep).map((page) => page.info.index);
  const unsearchable = indices((page) => !page.info.searchable && page.problem === null);
  if (unsearchable.length > 0) {
    const why = ocr.ocrRequested ? "OCR is not installed on the server" : "OCR is turned off";
    const [verb, pronoun] = unsearchable.length === 1 ? ["has", "it"] : ["have", "they"];
    warnings.push(
      `${countPages(unsearchable.length)} ${verb} no text and ${why}, so ${pronoun} cannot be searched (page ${formatPageList(unsearchable)}).`,
    );
  }
  const recognized = indices((page) => page.info.ocr && page.info.textChars > 0);
  if (recognized.length > 0) {
    const [verb, possessive] = recognized.length === 1 ? ["was", "its"] : ["were", "their"];
    warnings.push(
      `${countPages(recognized.length)} had no text layer and ${verb} read with OCR; ${possessive} text may contain recognition errors (page ${formatPageList(recognized)}).`,
    );
  }
  const ocrFailed = indices((page) => page.problem === "ocr_failed");
  if (ocrFailed.length > 0) {
    warnings.push(
      `OCR failed on ${countPages(ocrFailed.length)}, so ${ocrFailed.length === 1 ? "it has" : "they have"} no searchable text (page ${formatPageList(ocrFailed)}).`,
    );
  }
  const unreadable = indices((page) => page.problem === "unreadable");
  if (unreadable.length > 0) {
    const verb = unreadable.length === 1 ? "was" : "were";
    warnings.push(
      `${countPages(unreadable.length)} could not be read and ${verb} skipped (page ${formatPageList(unreadable)}).`,
    );
  }
  return warnings;
}
