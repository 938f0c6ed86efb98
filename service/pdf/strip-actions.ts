/**
 * A slice is evidence to read, not a document to run: actions that execute code or open other programs are
 * removed from it (JavaScript, Launch, form submission; additional-actions and open actions), whatever the
 * customer's PDF carried. Links to URLs and within the slice stay.
 */
import { PDFArray, PDFDict, PDFName, type PDFObject } from "pdf-lib";

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
function isActive(action: PDFObject | undefined, seen = new Set<PDFDict>()): boolean {
  if (!(action instanceof PDFDict) || seen.has(action)) return false;
  seen.add(action);
  const kind = action.lookup(PDFName.of("S"));
  if (kind instanceof PDFName && activeActions.has(kind.decodeText())) return true;
  const next = action.lookup(PDFName.of("Next"));
  if (next instanceof PDFArray) return next.asArray().some((_, index) => isActive(next.lookup(index), seen));
  return isActive(next, seen);
}

const additionalActions = PDFName.of("AA");
const openAction = PDFName.of("OpenAction");
const action = PDFName.of("A");

/**
 * The dictionary as a slice may carry it: without additional actions, an open action, or an action that
 * runs code (even chained after a link); the same dictionary when it has none of them.
 */
export function withoutActions(dictionary: PDFDict): PDFDict {
  const activeAction = isActive(dictionary.lookup(action));
  if (!activeAction && !dictionary.has(additionalActions) && !dictionary.has(openAction)) return dictionary;
  const copy = dictionary.clone();
  copy.delete(additionalActions);
  copy.delete(openAction);
  if (activeAction) copy.delete(action);
  return copy;
}
