/**
 * Reads a PDF the way a viewer does: the cross-reference sections first, then only the objects asked for,
 * each parsed when first looked up. A slice of three pages of a 1,000-page file so reads a few dozen objects
 * instead of all of them: pdf-lib's `PDFDocument.load` parses every object in the file before the first
 * page can be copied (seconds for a large manual), and qpdf copies its pages in another process (about
 * 160 ms per slice). Objects come out as pdf-lib objects, so the slice writer treats both alike.
 *
 * Hand-written because no maintained library exposes lazy object access (pdf.js has it, inside its worker
 * only). It reads what a well-formed file states and refuses the rest — encryption, a cross-reference
 * offset that does not land on its object, a filter it does not know — by throwing; the slicer then falls
 * back to readers that rebuild damaged files (qpdf, pdf-lib's full parse).
 */
import { inflateSync, constants as zlib } from "node:zlib";
import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectParser,
  PDFPageLeaf,
  PDFRawStream,
  PDFRef,
} from "pdf-lib";
import type { PageSource } from "./slice-writer.ts";

export interface LazyPageSource extends PageSource {
  /** Parses more of the document for up to `ms` milliseconds; false once every object is parsed. */
  readAhead(ms: number): boolean;
}

type Entry =
  | { kind: "free" }
  | { kind: "offset"; offset: number; generation: number }
  | { kind: "compressed"; stream: number; index: number };

const names = {
  type: PDFName.of("Type"),
  size: PDFName.of("Size"),
  prev: PDFName.of("Prev"),
  xrefStream: PDFName.of("XRefStm"),
  root: PDFName.of("Root"),
  encrypt: PDFName.of("Encrypt"),
  pages: PDFName.of("Pages"),
  kids: PDFName.of("Kids"),
  count: PDFName.of("Count"),
  w: PDFName.of("W"),
  index: PDFName.of("Index"),
  filter: PDFName.of("Filter"),
  decodeParms: PDFName.of("DecodeParms"),
  first: PDFName.of("First"),
  n: PDFName.of("N"),
};
/** A cross-reference or object stream that inflates past this is taken for a bomb. */
const maxDecodedBytes = 64 * 1024 * 1024;
/** Deeper page trees than this are taken for a cycle. */
const maxTreeDepth = 64;

class UnreadablePdf extends Error {}

function fail(message: string): never {
  throw new UnreadablePdf(message);
}

const isWhitespace = (byte: number) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;

/** Whitespace-separated tokens from `offset` on, for the plain-text parts: tables and headers. */
function tokensFrom(bytes: Uint8Array, offset: number) {
  let at = offset;
  return {
    next(): string {
      while (at < bytes.length && isWhitespace(bytes[at]!)) at++;
      const start = at;
      while (at < bytes.length && !isWhitespace(bytes[at]!) && bytes[at] !== 0x3c && bytes[at] !== 0x25) at++;
      return Buffer.from(bytes.buffer, bytes.byteOffset + start, at - start).toString("latin1");
    },
    get offset() {
      return at;
    },
  };
}

function integer(token: string, what: string): number {
  if (!/^\d+$/.test(token)) fail(`${what}: expected a number, found "${token.slice(0, 20)}"`);
  return Number(token);
}

function numberIn(dictionary: PDFDict, name: PDFName): number | undefined {
  const value = dictionary.lookup(name);
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

/** PNG predictors (ISO 32000-1, 7.4.4.4), as cross-reference and object streams use them. */
function unpredict(data: Uint8Array, parameters: PDFDict | undefined): Uint8Array {
  const predictor = parameters ? (numberIn(parameters, PDFName.of("Predictor")) ?? 1) : 1;
  if (predictor === 1) return data;
  if (predictor < 10) fail(`predictor ${predictor} is not supported`);
  const colors = numberIn(parameters!, PDFName.of("Colors")) ?? 1;
  const bits = numberIn(parameters!, PDFName.of("BitsPerComponent")) ?? 8;
  const columns = numberIn(parameters!, PDFName.of("Columns")) ?? 1;
  const pixel = Math.max(1, Math.ceil((colors * bits) / 8));
  const row = Math.ceil((colors * bits * columns) / 8);
  const rows = Math.floor(data.length / (row + 1));
  const output = new Uint8Array(rows * row);
  for (let r = 0; r < rows; r++) {
    const filter = data[r * (row + 1)]!;
    const input = r * (row + 1) + 1;
    const out = r * row;
    for (let c = 0; c < row; c++) {
      const raw = data[input + c]!;
      const left = c >= pixel ? output[out + c - pixel]! : 0;
      const up = r > 0 ? output[out - row + c]! : 0;
      const upLeft = r > 0 && c >= pixel ? output[out - row + c - pixel]! : 0;
      let value: number;
      if (filter === 0) value = raw;
      else if (filter === 1) value = raw + left;
      else if (filter === 2) value = raw + up;
      else if (filter === 3) value = raw + ((left + up) >> 1);
      else if (filter === 4) {
        const estimate = left + up - upLeft;
        const [a, b, c2] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
        value = raw + (a <= b && a <= c2 ? left : b <= c2 ? up : upLeft);
      } else fail(`PNG filter ${filter} does not exist`);
      output[out + c] = value & 0xff;
    }
  }
  return output;
}

/** The decoded contents of a cross-reference or object stream: no filter, or Flate with a predictor. */
function decoded(stream: PDFRawStream): Uint8Array {
  const filter = stream.dict.lookup(names.filter);
  const parameters = stream.dict.lookup(names.decodeParms);
  const single = (value: PDFObject | undefined) =>
    value instanceof PDFArray ? (value.size() === 1 ? value.lookup(0) : value) : value;
  const kind = single(filter);
  if (kind === undefined) return stream.contents;
  if (kind !== PDFName.of("FlateDecode")) fail(`filter ${String(filter)} is not supported here`);
  const inflated = inflateSync(stream.contents, {
    finishFlush: zlib.Z_SYNC_FLUSH,
    maxOutputLength: maxDecodedBytes,
  });
  const parameterDict = single(parameters);
  return unpredict(inflated, parameterDict instanceof PDFDict ? parameterDict : undefined);
}

/** A lazily read PDF: its objects on demand, its pages by index. */
export function openLazily(bytes: Uint8Array): LazyPageSource {
  const context = PDFContext.create();
  const entries = new Map<number, Entry>();
  let size = 0;
  let trailer: PDFDict | undefined;

  /** The object whose "n g obj" header is at `offset`: the parser starts right after the header. */
  function objectAt(offset: number, expected: number): PDFObject {
    const tokens = tokensFrom(bytes, offset);
    const number = integer(tokens.next(), `object ${expected}`);
    tokens.next();
    if (number !== expected || tokens.next() !== "obj")
      fail(`the cross-reference entry of object ${expected} does not point at it`);
    return PDFObjectParser.forBytes(bytes.subarray(tokens.offset), context).parseObject();
  }

  function readTable(offset: number): PDFDict {
    const tokens = tokensFrom(bytes, offset);
    tokens.next(); // "xref"
    for (let token = tokens.next(); token !== "trailer"; token = tokens.next()) {
      const first = integer(token, "cross-reference subsection");
      const count = integer(tokens.next(), "cross-reference subsection");
      for (let index = 0; index < count; index++) {
        const at = integer(tokens.next(), "cross-reference entry");
        const generation = integer(tokens.next(), "cross-reference entry");
        const kind = tokens.next();
        if (kind !== "n" && kind !== "f") fail(`cross-reference entry of kind "${kind}"`);
        if (!entries.has(first + index))
          entries.set(
            first + index,
            kind === "n" ? { kind: "offset", offset: at, generation } : { kind: "free" },
          );
      }
    }
    const dictionary = PDFObjectParser.forBytes(bytes.subarray(tokens.offset), context).parseObject();
    if (!(dictionary instanceof PDFDict)) fail("the trailer is not a dictionary");
    return dictionary;
  }

  function readStream(offset: number): PDFDict {
    const stream = PDFObjectParser.forBytes(bytes.subarray(offset), context).parseObject();
    if (!(stream instanceof PDFRawStream) || stream.dict.lookup(names.type) !== PDFName.of("XRef"))
      fail("the cross-reference offset does not point at a cross-reference stream");
    const widths = stream.dict.lookup(names.w);
    if (!(widths instanceof PDFArray) || widths.size() !== 3) fail("cross-reference stream without /W");
    const [w1, w2, w3] = widths
      .asArray()
      .map((value) => (value instanceof PDFNumber ? value.asNumber() : -1));
    if ([w1, w2, w3].some((width) => width === undefined || width < 0 || width > 8))
      fail("cross-reference stream with a bad /W");
    const streamSize = numberIn(stream.dict, names.size) ?? fail("cross-reference stream without /Size");
    const index = stream.dict.lookup(names.index);
    const ranges =
      index instanceof PDFArray
        ? index.asArray().map((value) => (value instanceof PDFNumber ? value.asNumber() : fail("bad /Index")))
        : [0, streamSize];
    const data = decoded(stream);
    const field = (at: number, width: number) => {
      let value = 0;
      for (let byte = 0; byte < width; byte++) value = value * 256 + data[at + byte]!;
      return value;
    };
    const rowLength = w1! + w2! + w3!;
    let at = 0;
    for (let range = 0; range + 1 < ranges.length; range += 2) {
      const first = ranges[range]!;
      const count = ranges[range + 1]!;
      for (let offsetInRange = 0; offsetInRange < count; offsetInRange++, at += rowLength) {
        if (at + rowLength > data.length) fail("cross-reference stream shorter than its /Index says");
        const kind = w1 === 0 ? 1 : field(at, w1!);
        const second = field(at + w1!, w2!);
        const third = field(at + w1! + w2!, w3!);
        const number = first + offsetInRange;
        if (entries.has(number)) continue;
        if (kind === 0) entries.set(number, { kind: "free" });
        else if (kind === 1) entries.set(number, { kind: "offset", offset: second, generation: third });
        else if (kind === 2) entries.set(number, { kind: "compressed", stream: second, index: third });
      }
    }
    return stream.dict;
  }

  /** One cross-reference section at `offset` and the ones it chains to, newest first. */
  function readSections(start: number): void {
    const visited = new Set<number>();
    const pending = [start];
    for (let offset = pending.shift(); offset !== undefined; offset = pending.shift()) {
      if (visited.has(offset) || offset >= bytes.length) fail(`cross-reference section at ${offset}`);
      visited.add(offset);
      const tokens = tokensFrom(bytes, offset);
      const first = tokens.next();
      let section: PDFDict;
      if (first === "xref") section = readTable(offset);
      else {
        integer(first, "cross-reference stream");
        tokens.next();
        if (tokens.next() !== "obj") fail("the cross-reference offset points at no object");
        section = readStream(tokens.offset);
      }
      trailer ??= section;
      size = Math.max(size, numberIn(section, names.size) ?? 0);
      // A hybrid file's stream entries rank below its table's and above older sections (7.5.8.4).
      const hybrid = numberIn(section, names.xrefStream);
      const previous = numberIn(section, names.prev);
      if (hybrid !== undefined) pending.unshift(hybrid);
      if (previous !== undefined) pending.push(previous);
    }
  }

  // The last startxref: an incremental update appends its own after the original's.
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
    .subarray(Math.max(0, bytes.length - 2048))
    .toString("latin1");
  const startxref = [...tail.matchAll(/startxref\s+(\d+)/g)].at(-1);
  if (!startxref) fail("no startxref at the end of the file");
  readSections(Number(startxref[1]));
  if (!trailer) fail("no trailer");
  if (trailer.has(names.encrypt)) fail("the file is encrypted");

  const objectStreams = new Map<number, Map<number, PDFObject>>();
  function fromObjectStream(number: number, streamNumber: number): PDFObject | undefined {
    let objects = objectStreams.get(streamNumber);
    if (!objects) {
      // An object stream is never itself compressed (7.5.7); a file that says so would send this in circles.
      if (entries.get(streamNumber)?.kind !== "offset")
        fail(`object stream ${streamNumber} is not in the file`);
      // Read past the context's map: once its objects are parsed, the stream's own bytes are not needed.
      const stream = load(PDFRef.of(streamNumber));
      if (!(stream instanceof PDFRawStream)) fail(`object stream ${streamNumber} is missing`);
      const data = decoded(stream);
      const count = numberIn(stream.dict, names.n) ?? fail(`object stream ${streamNumber} without /N`);
      const first =
        numberIn(stream.dict, names.first) ?? fail(`object stream ${streamNumber} without /First`);
      const header = tokensFrom(data, 0);
      objects = new Map();
      for (let index = 0; index < count; index++) {
        const objectNumber = integer(header.next(), "object stream header");
        const offset = integer(header.next(), "object stream header");
        objects.set(
          objectNumber,
          PDFObjectParser.forBytes(data.subarray(first + offset), context).parseObject(),
        );
      }
      objectStreams.set(streamNumber, objects);
    }
    return objects.get(number);
  }

  function load(ref: PDFRef): PDFObject | undefined {
    const entry = entries.get(ref.objectNumber);
    if (!entry || entry.kind === "free") return undefined;
    if (entry.kind === "compressed")
      return ref.generationNumber === 0 ? fromObjectStream(ref.objectNumber, entry.stream) : undefined;
    if (entry.generation !== ref.generationNumber) return undefined;
    return objectAt(entry.offset, ref.objectNumber);
  }

  // pdf-lib's objects look references up in their context's map; this one reads each object on first use.
  const objects = new (class extends Map<PDFRef, PDFObject> {
    override get(ref: PDFRef): PDFObject | undefined {
      const known = super.get(ref);
      if (known !== undefined || !(ref instanceof PDFRef)) return known;
      const object = load(ref);
      if (object !== undefined) super.set(ref, object);
      return object;
    }
  })();
  Object.defineProperty(context, "indirectObjects", { value: objects });

  const catalog = trailer.lookup(names.root);
  if (!(catalog instanceof PDFDict)) fail("no catalog");
  const root = catalog.lookup(names.pages);
  if (!(root instanceof PDFDict)) fail("no page tree");
  const pageCount = numberIn(root, names.count) ?? fail("the page tree has no /Count");
  const found = new Map<number, { ref: PDFRef; node: PDFPageLeaf }>();

  /** The page at `index`, found by descending the page tree along its /Count entries. */
  function page(index: number): { ref: PDFRef; node: PDFPageLeaf } {
    const known = found.get(index);
    if (known) return known;
    if (!Number.isInteger(index) || index < 0 || index >= pageCount)
      throw new RangeError(`page index ${index} is outside the document's ${pageCount} pages`);
    let node: PDFDict = root as PDFDict;
    let remaining = index;
    for (let depth = 0; depth < maxTreeDepth; depth++) {
      const kids = node.lookup(names.kids);
      if (!(kids instanceof PDFArray)) fail("a page tree node without /Kids");
      let next: PDFDict | undefined;
      for (const kid of kids.asArray()) {
        const child = context.lookup(kid);
        if (child instanceof PDFPageLeaf) {
          if (remaining === 0 && kid instanceof PDFRef) {
            const result = { ref: kid, node: child };
            found.set(index, result);
            return result;
          }
          remaining -= 1;
        } else if (child instanceof PDFDict && child.has(names.kids)) {
          const count = numberIn(child, names.count) ?? fail("a page tree node without /Count");
          if (remaining < count) {
            next = child;
            break;
          }
          remaining -= count;
        } else fail("a page tree entry that is neither a page nor a node");
      }
      if (!next) fail(`the page tree has no page ${index}`);
      node = next;
    }
    fail("the page tree is deeper than any real file's");
  }

  const objectStreamNumbers = new Set(
    [...entries.values()].flatMap((entry) => (entry.kind === "compressed" ? [entry.stream] : [])),
  );
  const unread = [...entries.keys()].sort((a, b) => a - b);
  let cursor = 0;

  /**
   * Parses further objects, in number order, for up to `ms` milliseconds; false once all are parsed. Reading
   * stops at the first object that does not parse: a slice that reaches it fails and the slicer falls back.
   */
  function readAhead(ms: number): boolean {
    const until = performance.now() + ms;
    while (cursor < unread.length) {
      if (performance.now() >= until) return true;
      const number = unread[cursor++]!;
      const entry = entries.get(number)!;
      if (entry.kind === "free" || objectStreamNumbers.has(number)) continue;
      try {
        context.lookup(PDFRef.of(number, entry.kind === "offset" ? entry.generation : 0));
      } catch {
        cursor = unread.length;
      }
    }
    return false;
  }

  return { context, largestObjectNumber: Math.max(0, size - 1), pageCount, page, readAhead };
}
