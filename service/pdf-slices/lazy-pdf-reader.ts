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
import { inSteps } from "./in-steps.ts";
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
/** What the cross-reference and object streams of one document may inflate to, together: more is a bomb. */
const maxDecodedBytes = 128 * 1024 * 1024;
/** The largest object number a PDF may use (ISO 32000-1, Annex C). */
const maxObjectNumber = 8_388_607;
/** Deeper page trees than this are taken for a cycle. */
const maxTreeDepth = 64;

function fail(message: string): never {
  throw new Error(message);
}

const isWhitespace = (byte: number) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
/** ( ) < > [ ] { } / % end a token as whitespace does: `5 0 obj<<` is three tokens and a dictionary. */
const delimiters = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const endsToken = (byte: number) => isWhitespace(byte) || delimiters.has(byte);

/** Tokens from `offset` on, for the plain-text parts: tables and headers. */
function tokensFrom(bytes: Uint8Array, offset: number) {
  let at = offset;
  return {
    next(): string {
      while (at < bytes.length && isWhitespace(bytes[at]!)) at++;
      const start = at;
      while (at < bytes.length && !endsToken(bytes[at]!)) at++;
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

/**
 * An entry of a cross-reference or object stream's dictionary, or of a trailer. These must be direct: looking
 * a reference up would read objects while the cross-reference is still being read, or re-enter an object
 * stream from inside itself.
 */
function direct(dictionary: PDFDict, name: PDFName): PDFObject | undefined {
  const value = dictionary.get(name);
  if (value instanceof PDFRef) fail(`/${name.decodeText()} is a reference where a direct value is needed`);
  return value;
}

function numberIn(dictionary: PDFDict, name: PDFName): number | undefined {
  const value = direct(dictionary, name);
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

/**
 * The decoded contents of a cross-reference or object stream: no filter, or Flate with a predictor. `budget`
 * is what the document's streams may still inflate to; what this one used is taken from it.
 */
function decoded(stream: PDFRawStream, budget: { bytes: number }): Uint8Array {
  const filter = direct(stream.dict, names.filter);
  const parameters = direct(stream.dict, names.decodeParms);
  const single = (value: PDFObject | undefined) =>
    value instanceof PDFArray ? (value.size() === 1 ? value.get(0) : value) : value;
  const kind = single(filter);
  if (kind === undefined) return stream.contents;
  if (kind !== PDFName.of("FlateDecode")) fail(`filter ${String(filter)} is not supported here`);
  if (budget.bytes <= 0) fail("the document's streams inflate to more than a real file's");
  const inflated = inflateSync(stream.contents, {
    finishFlush: zlib.Z_SYNC_FLUSH,
    maxOutputLength: budget.bytes,
  });
  budget.bytes -= inflated.length;
  const parameterDict = single(parameters);
  return unpredict(inflated, parameterDict instanceof PDFDict ? parameterDict : undefined);
}

/** A lazily read PDF: its objects on demand, its pages by index. */
export function openLazily(bytes: Uint8Array): LazyPageSource {
  const context = PDFContext.create();
  const entries = new Map<number, Entry>();
  const budget = { bytes: maxDecodedBytes };
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

  /** A classic table's entries in use, and the numbers it marks free: those are applied by the caller. */
  function readTable(offset: number): { trailer: PDFDict; free: number[] } {
    const tokens = tokensFrom(bytes, offset);
    tokens.next(); // "xref"
    const free: number[] = [];
    for (let token = tokens.next(); token !== "trailer"; token = tokens.next()) {
      const first = integer(token, "cross-reference subsection");
      const count = integer(tokens.next(), "cross-reference subsection");
      if (first + count - 1 > maxObjectNumber)
        fail("a cross-reference subsection past the largest object number");
      for (let index = 0; index < count; index++) {
        const at = integer(tokens.next(), "cross-reference entry");
        const generation = integer(tokens.next(), "cross-reference entry");
        const kind = tokens.next();
        if (kind === "f") free.push(first + index);
        else if (kind !== "n") fail(`cross-reference entry of kind "${kind}"`);
        else if (!entries.has(first + index))
          entries.set(first + index, { kind: "offset", offset: at, generation });
      }
    }
    const trailer = PDFObjectParser.forBytes(bytes.subarray(tokens.offset), context).parseObject();
    if (!(trailer instanceof PDFDict)) fail("the trailer is not a dictionary");
    return { trailer, free };
  }

  /** The cross-reference stream whose "n g obj" header is at `offset`. */
  function readStream(offset: number): PDFDict {
    const tokens = tokensFrom(bytes, offset);
    integer(tokens.next(), "cross-reference stream");
    integer(tokens.next(), "cross-reference stream");
    if (tokens.next() !== "obj") fail("the cross-reference offset points at no object");
    const stream = PDFObjectParser.forBytes(bytes.subarray(tokens.offset), context).parseObject();
    if (!(stream instanceof PDFRawStream) || direct(stream.dict, names.type) !== PDFName.of("XRef"))
      fail("the cross-reference offset does not point at a cross-reference stream");
    const widths = direct(stream.dict, names.w);
    if (!(widths instanceof PDFArray) || widths.size() !== 3) fail("cross-reference stream without /W");
    const [w1, w2, w3] = widths
      .asArray()
      .map((value) => (value instanceof PDFNumber ? value.asNumber() : -1));
    if ([w1, w2, w3].some((width) => width === undefined || width < 0 || width > 8))
      fail("cross-reference stream with a bad /W");
    const streamSize = numberIn(stream.dict, names.size) ?? fail("cross-reference stream without /Size");
    const index = direct(stream.dict, names.index);
    const ranges =
      index instanceof PDFArray
        ? index.asArray().map((value) => (value instanceof PDFNumber ? value.asNumber() : fail("bad /Index")))
        : [0, streamSize];
    const data = decoded(stream, budget);
    const rowLength = w1! + w2! + w3!;
    if (rowLength === 0) fail("cross-reference stream with rows of no bytes");
    let rows = 0;
    for (let range = 0; range + 1 < ranges.length; range += 2) {
      const [first, count] = [ranges[range]!, ranges[range + 1]!];
      if (first < 0 || count < 0 || first + count - 1 > maxObjectNumber) fail("a bad /Index");
      rows += count;
    }
    if (rows * rowLength > data.length) fail("cross-reference stream shorter than its /Index says");
    const field = (at: number, width: number) => {
      let value = 0;
      for (let byte = 0; byte < width; byte++) value = value * 256 + data[at + byte]!;
      return value;
    };
    let at = 0;
    for (let range = 0; range + 1 < ranges.length; range += 2) {
      const first = ranges[range]!;
      const count = ranges[range + 1]!;
      for (let offsetInRange = 0; offsetInRange < count; offsetInRange++, at += rowLength) {
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

  /** The cross-reference section at `offset` and those it chains to by /Prev, newest first. */
  function readSections(start: number): void {
    const visited = new Set<number>();
    for (let offset: number | undefined = start; offset !== undefined && !visited.has(offset); ) {
      if (offset >= bytes.length) fail(`cross-reference section at ${offset}, past the end`);
      visited.add(offset);
      let section: PDFDict;
      if (tokensFrom(bytes, offset).next() === "xref") {
        const table = readTable(offset);
        section = table.trailer;
        // A hybrid file's stream holds the objects its table marks free for older readers (7.5.8.4): the
        // stream's entries come before the table's free ones.
        const hybrid = numberIn(section, names.xrefStream);
        if (hybrid !== undefined && !visited.has(hybrid)) {
          visited.add(hybrid);
          readStream(hybrid);
        }
        for (const number of table.free) if (!entries.has(number)) entries.set(number, { kind: "free" });
      } else section = readStream(offset);
      trailer ??= section;
      size = Math.max(size, Math.min(numberIn(section, names.size) ?? 0, maxObjectNumber + 1));
      offset = numberIn(section, names.prev);
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

  /** An object stream's decoded bytes and where each of its objects starts; each object is parsed when asked for. */
  interface ObjectStream {
    data: Uint8Array;
    starts: Map<number, number>;
  }
  const objectStreams = new Map<number, ObjectStream>();

  function objectStream(streamNumber: number): ObjectStream {
    const known = objectStreams.get(streamNumber);
    if (known) return known;
    // An object stream is never itself compressed (7.5.7); a file that says so would send this in circles.
    if (entries.get(streamNumber)?.kind !== "offset")
      fail(`object stream ${streamNumber} is not in the file`);
    // Read past the context's map: once its objects are parsed, the stream's own bytes are not needed.
    const stream = load(PDFRef.of(streamNumber));
    if (!(stream instanceof PDFRawStream)) fail(`object stream ${streamNumber} is missing`);
    const data = decoded(stream, budget);
    const count = numberIn(stream.dict, names.n) ?? fail(`object stream ${streamNumber} without /N`);
    const first = numberIn(stream.dict, names.first) ?? fail(`object stream ${streamNumber} without /First`);
    const header = tokensFrom(data, 0);
    const starts = new Map<number, number>();
    let previous = -1;
    for (let index = 0; index < count; index++) {
      const objectNumber = integer(header.next(), "object stream header");
      const offset = integer(header.next(), "object stream header");
      // Offsets in order and inside the stream, so that no object is parsed from another's bytes.
      if (offset <= previous || first + offset >= data.length)
        fail(`object stream ${streamNumber}: bad offsets`);
      previous = offset;
      starts.set(objectNumber, first + offset);
    }
    const read = { data, starts };
    objectStreams.set(streamNumber, read);
    return read;
  }

  function load(ref: PDFRef): PDFObject | undefined {
    const entry = entries.get(ref.objectNumber);
    if (!entry || entry.kind === "free") return undefined;
    if (entry.kind === "offset")
      return entry.generation === ref.generationNumber ? objectAt(entry.offset, ref.objectNumber) : undefined;
    if (ref.generationNumber !== 0) return undefined;
    const { data, starts } = objectStream(entry.stream);
    const start = starts.get(ref.objectNumber);
    if (start === undefined) fail(`object ${ref.objectNumber} is not in object stream ${entry.stream}`);
    return PDFObjectParser.forBytes(data.subarray(start), context).parseObject();
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

  /** Object numbers in order, for reading ahead; worked out on its first step, off a first slice's path. */
  let unread: number[] | null = null;
  let objectStreamNumbers = new Set<number>();
  let cursor = 0;
  /**
   * Parses further objects, in number order, for up to `ms` milliseconds; false once all are parsed. Reading
   * stops at the first object that does not parse: a slice that reaches it fails and the slicer falls back.
   */
  const readAhead = inSteps(() => {
    if (unread === null) {
      unread = [...entries.keys()].sort((a, b) => a - b);
      objectStreamNumbers = new Set(
        [...entries.values()].flatMap((entry) => (entry.kind === "compressed" ? [entry.stream] : [])),
      );
    }
    if (cursor >= unread.length) return false;
    const number = unread[cursor++]!;
    const entry = entries.get(number)!;
    if (entry.kind !== "free" && !objectStreamNumbers.has(number))
      context.lookup(PDFRef.of(number, entry.kind === "offset" ? entry.generation : 0));
    return true;
  });

  return { context, largestObjectNumber: Math.max(0, size - 1), pageCount, page, readAhead };
}
