/**
 * A slice is evidence to read, not a document to run: actions that execute code or open other programs are
 * removed from it (JavaScript, Launch, form submission; additional-actions and open actions), whatever the
 * customer's PDF carried. Links to URLs and within the slice stay.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName } from "pdf-lib";

const activeActions = new Set([
  "JavaScript",
  "Launch",
  "SubmitForm",
  "ImportData",
  "Rendition",
  "Movie",
  "Sound",
]);

/** Bytes that may name an active action; a slice without them (saved without object streams) needs no cleaning. */
const activeMarker = /\/(JavaScript|JS|Launch|SubmitForm|ImportData|AA|OpenAction)\b/;

export function mayCarryActions(bytes: Uint8Array): boolean {
  return activeMarker.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
}

/** Whether an action, or any action chained after it by /Next, runs code or another program. */
function isActive(action: PDFDict | undefined, seen = new Set<PDFDict>()): boolean {
  if (!action || seen.has(action)) return false;
  seen.add(action);
  const kind = action.lookupMaybe(PDFName.of("S"), PDFName)?.decodeText();
  if (kind && activeActions.has(kind)) return true;
  const next = action.lookup(PDFName.of("Next"));
  if (next instanceof PDFDict) return isActive(next, seen);
  if (next instanceof PDFArray) {
    return next.asArray().some((_, index) => isActive(next.lookupMaybe(index, PDFDict), seen));
  }
  return false;
}

/**
 * Removes active content from the given pages of `source` (in place) and copies them into a new document.
 * Copying is what drops the removed actions' objects: a document writes every object it holds, referenced
 * or not, and a copy holds only what the pages still reach.
 */
export async function copyWithoutActions(
  source: PDFDocument,
  indices: readonly number[],
): Promise<PDFDocument> {
  const pages = source.getPages();
  for (const index of indices) {
    const page = pages[index];
    if (!page) continue;
    page.node.delete(PDFName.of("AA"));
    const annotations = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
    for (let at = 0; at < (annotations?.size() ?? 0); at++) {
      const annotation = annotations?.lookupMaybe(at, PDFDict);
      if (!annotation) continue;
      annotation.delete(PDFName.of("AA"));
      if (isActive(annotation.lookupMaybe(PDFName.of("A"), PDFDict))) annotation.delete(PDFName.of("A"));
    }
  }
  // The catalog (open action, document scripts) is not copied at all.
  const output = await PDFDocument.create({ updateMetadata: false });
  for (const copied of await output.copyPages(source, [...indices])) output.addPage(copied);
  return output;
}
