/**
 * A slice is evidence to read, not a document to run: actions that execute code, open other files or
 * programs, or send data are removed from it (JavaScript, Launch, remote and embedded go-tos, form
 * submission, media), as are additional-actions and open actions, wherever the customer's PDF put them,
 * and links to any address but http(s) (`javascript:`, `file:`, `data:`…). Links to web pages and
 * within the slice stay.
 */
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNull,
  type PDFObject,
  PDFRawStream,
  PDFString,
} from "pdf-lib";

const activeActions = new Set([
  "JavaScript",
  "Launch",
  "GoToR",
  "GoToE",
  "SubmitForm",
  "ImportData",
  "Rendition",
  "Movie",
  "Sound",
  "RichMediaExecute",
]);
const removedKeys = [PDFName.of("AA"), PDFName.of("OpenAction")];
const actionKind = PDFName.of("S");
const uriKey = PDFName.of("URI");

/**
 * Bytes that may name an active action, or a link whose address is a hex string, a literal one that does
 * not start with http(s), or an object of its own; a slice without them (saved without object streams)
 * needs no cleaning.
 */
const activeMarker = new RegExp(
  `/(${[...activeActions, "JS", "AA", "OpenAction"].join("|")})\\b|/URI\\s*(<|\\((?!https?:)|\\d+\\s+\\d+\\s+R)`,
  "i",
);

export function mayCarryActions(bytes: Uint8Array): boolean {
  return activeMarker.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
}

function isActiveAction(dictionary: PDFDict): boolean {
  const kind = dictionary.lookup(actionKind);
  if (!(kind instanceof PDFName)) return false;
  if (kind.decodeText() === "URI") return !isWebAddress(dictionary.lookup(uriKey));
  return activeActions.has(kind.decodeText());
}

function isWebAddress(value: PDFObject | undefined): boolean {
  const text = value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : "";
  return /^https?:/i.test(text);
}

/**
 * The value as a slice may carry it: an active action becomes null (so does a chained one, where it sits),
 * every dictionary loses /AA and /OpenAction, and direct dictionaries, arrays and stream dictionaries inside
 * are cleaned the same way. A value with nothing to remove is returned as it is; references are left to
 * the caller, who cleans each object it writes.
 */
export function withoutActions(value: PDFObject): PDFObject {
  if (value instanceof PDFDict) {
    if (isActiveAction(value)) return PDFNull;
    let copy: PDFDict | null = null;
    for (const key of removedKeys) {
      if (value.has(key)) {
        copy ??= value.clone();
        copy.delete(key);
      }
    }
    for (const [key, entry] of value.entries()) {
      if (removedKeys.includes(key)) continue;
      const cleaned = withoutActions(entry);
      if (cleaned === entry) continue;
      copy ??= value.clone();
      copy.set(key, cleaned);
    }
    return copy ?? value;
  }
  if (value instanceof PDFArray) {
    const entries = value.asArray();
    const cleaned = entries.map(withoutActions);
    if (cleaned.every((entry, at) => entry === entries[at])) return value;
    const copy = value.clone();
    for (const [at, entry] of cleaned.entries()) copy.set(at, entry);
    return copy;
  }
  if (value instanceof PDFRawStream) {
    const dictionary = withoutActions(value.dict);
    if (dictionary === value.dict) return value;
    return dictionary instanceof PDFDict ? PDFRawStream.of(dictionary, value.contents) : PDFNull;
  }
  return value;
}
