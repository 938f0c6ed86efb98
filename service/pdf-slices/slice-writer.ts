/**
 * Writes a few pages of a parsed PDF as a new PDF by reusing each object's serialized bytes. A slice holds
 * the pages, every object they reach (fonts, images, content streams, annotations), a new page tree and
 * catalog, and a cross-reference table; objects keep their numbers, so each is serialized once per document
 * (a stream's contents are not copied at all: pdf-lib's buffer is written as it is) and a later slice that
 * reaches it again only copies its bytes.
 *
 * Hand-written because this is the slicer's hot path: pdf-lib's `copyPages` + `save` cloned and
 * re-serialized every font and image for every slice. Active content is dropped on the way (see
 * strip-actions.ts); references the slice leaves out (other pages, the original page tree) stay dangling,
 * which a reader treats as null (ISO 32000-1, 7.3.10).
 */
import {
  PDFArray,
  type PDFContext,
  PDFDict,
  type PDFDocument,
  PDFName,
  type PDFObject,
  type PDFPageLeaf,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from "pdf-lib";
import { inSteps } from "./in-steps.ts";
import { withoutActions } from "./strip-actions.ts";

const encoder = new TextEncoder();
const inheritedEntries = ["Resources", "MediaBox", "CropBox", "Rotate"].map((name) => PDFName.of(name));
const names = {
  type: PDFName.of("Type"),
  parent: PDFName.of("Parent"),
  kids: PDFName.of("Kids"),
  beads: PDFName.of("B"),
};
/** Objects of the document's structure: a slice writes its own page tree and catalog. */
const structureTypes = new Set(["Page", "Pages", "Catalog"]);
const streamStart = encoder.encode("\nstream\n");
const streamEnd = encoder.encode("\nendstream\nendobj\n");
const objectEnd = encoder.encode("\nendobj\n");
// The binary comment tells transfer tools the file is not text.
const header = new Uint8Array([...encoder.encode("%PDF-1.7\n%"), 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]);

/** What a slice is written from: a document's objects and its pages by index (parsed whole, or read lazily). */
export interface PageSource {
  context: PDFContext;
  /** The largest object number the document uses. */
  largestObjectNumber: number;
  pageCount: number;
  /** Throws a RangeError outside [0, pageCount). */
  page(index: number): { ref: PDFRef; node: PDFPageLeaf };
}

/** A document pdf-lib has parsed whole, as a page source. */
export function pageSourceOf(document: PDFDocument): PageSource {
  const pages = document.getPages();
  return {
    context: document.context,
    largestObjectNumber: document.context.largestObjectNumber,
    pageCount: pages.length,
    page(index) {
      const page = pages[index];
      if (!page) throw new RangeError(`page index ${index} is outside the document's ${pages.length} pages`);
      return { ref: page.ref, node: page.node };
    },
  };
}

export interface SliceWriter {
  readonly pageCount: number;
  /** A PDF of the pages at `indices` (0-based, in that order). */
  write(indices: readonly number[]): Uint8Array<ArrayBuffer>;
  /**
   * Works out for up to `ms` milliseconds, page after page, what later slices need (the objects each page
   * reaches, serialized), so that a slice is then mostly copying; false once every page is done. Stops at the
   * first object that does not parse: a slice that reaches it fails on its own.
   */
  prepare(ms: number): boolean;
}

interface Closure {
  /** The objects a page reaches, as written, its own first. */
  refs: PDFRef[];
  /** The largest object number any of them refers to, dangling references included. */
  largestReferenced: number;
}

export function createSliceWriter(source: PageSource): SliceWriter {
  const { context } = source;
  /** The pages slices have held so far; other pages are left out of a slice as structure (their /Type). */
  const pageIndexByRef = new Map<PDFRef, number>();
  const pageAt = (index: number) => {
    const page = source.page(index);
    pageIndexByRef.set(page.ref, index);
    return page;
  };
  /** Per object: its bytes as parts; a stream's contents are pdf-lib's own buffer, not a copy. */
  const serialized = new Map<PDFRef, Uint8Array[]>();
  const closures = new Map<number, Closure>();

  /** The page as a slice writes it: its inherited entries made its own, under `parent` when given. */
  function pageDictionary(index: number, parent?: PDFRef): PDFDict {
    const leaf = pageAt(index).node;
    const cleaned = withoutActions(leaf);
    const page = PDFDict.withContext(context);
    if (cleaned instanceof PDFDict) for (const [key, value] of cleaned.entries()) page.set(key, value);
    for (const name of inheritedEntries) {
      const value = page.has(name) ? undefined : leaf.getInheritableAttribute(name);
      if (value !== undefined) page.set(name, value);
    }
    page.delete(names.parent);
    if (parent) page.set(names.parent, parent);
    // Article beads chain to other pages' beads; a slice has no threads to follow.
    page.delete(names.beads);
    return page;
  }

  function isStructure(object: PDFObject): boolean {
    if (!(object instanceof PDFDict)) return false;
    const type = object.lookup(names.type);
    return type instanceof PDFName && structureTypes.has(type.decodeText());
  }

  /** An object other than a page, as written: without its active content. */
  function written(ref: PDFRef): PDFObject | undefined {
    const object = context.lookup(ref);
    return object === undefined ? undefined : withoutActions(object);
  }

  /**
   * The page's own object and every object it reaches, as written. A form field's /Kids are not followed:
   * they lead to the widgets of every other page, and a slice needs only its own pages' widgets.
   */
  function closure(index: number): Closure {
    const cached = closures.get(index);
    if (cached) return cached;
    const refs = [pageAt(index).ref];
    const seen = new Set<PDFRef>(refs);
    let largestReferenced = 0;
    const pending: PDFObject[] = [pageDictionary(index)];
    const noteReferences = (value: PDFObject) => {
      if (value instanceof PDFRef) largestReferenced = Math.max(largestReferenced, value.objectNumber);
      else if (value instanceof PDFArray) for (const entry of value.asArray()) noteReferences(entry);
    };
    for (let value = pending.pop(); value !== undefined; value = pending.pop()) {
      if (value instanceof PDFRef) {
        largestReferenced = Math.max(largestReferenced, value.objectNumber);
        if (seen.has(value)) continue;
        seen.add(value);
        const object = pageIndexByRef.has(value) ? undefined : written(value);
        if (object === undefined || isStructure(object)) continue;
        refs.push(value);
        pending.push(object);
      } else if (value instanceof PDFDict) {
        const followsKids = isStructure(value);
        for (const [key, entry] of value.entries()) {
          if (key === names.kids && !followsKids) noteReferences(entry);
          else pending.push(entry);
        }
      } else if (value instanceof PDFArray) {
        pending.push(...value.asArray());
      } else if (value instanceof PDFStream) {
        pending.push(value.dict);
      }
    }
    const computed = { refs, largestReferenced };
    closures.set(index, computed);
    return computed;
  }

  function serialize(ref: PDFRef, object: PDFObject): Uint8Array[] {
    const head = encoder.encode(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
    if (object instanceof PDFRawStream) {
      object.updateDict();
      const dictionary = object.dict;
      const opening = new Uint8Array(head.length + dictionary.sizeInBytes() + streamStart.length);
      opening.set(head);
      dictionary.copyBytesInto(opening, head.length);
      opening.set(streamStart, opening.length - streamStart.length);
      return [opening, object.contents, streamEnd];
    }
    const bytes = new Uint8Array(head.length + object.sizeInBytes() + objectEnd.length);
    bytes.set(head);
    object.copyBytesInto(bytes, head.length);
    bytes.set(objectEnd, bytes.length - objectEnd.length);
    return [bytes];
  }

  function partsOf(ref: PDFRef, pagesRef: PDFRef): Uint8Array[] {
    const index = pageIndexByRef.get(ref);
    // A page names the slice's page tree, whose number depends on the slice: it is written afresh.
    if (index !== undefined) return serialize(ref, pageDictionary(index, pagesRef));
    return serializedObject(ref);
  }

  function serializedObject(ref: PDFRef): Uint8Array[] {
    const cached = serialized.get(ref);
    if (cached) return cached;
    const object = written(ref);
    if (object === undefined) throw new Error(`object ${ref} is missing`);
    const parts = serialize(ref, object);
    serialized.set(ref, parts);
    return parts;
  }

  let unprepared = 0;
  const prepare = inSteps(() => {
    if (unprepared >= source.pageCount) return false;
    // The page's own object is written afresh for each slice; the objects it reaches are not.
    for (const ref of closure(unprepared).refs.slice(1)) serializedObject(ref);
    unprepared++;
    return true;
  });

  return {
    pageCount: source.pageCount,
    prepare,
    write(indices) {
      const kids = indices.map((index) => pageAt(index).ref);
      const reached = indices.map(closure);
      // Above every number the slice's objects use or refer to, so that no dangling reference names them.
      const base = Math.max(source.largestObjectNumber, ...reached.map((entry) => entry.largestReferenced));
      const pagesRef = PDFRef.of(base + 1);
      const catalogRef = PDFRef.of(base + 2);
      const refs = [...new Set(reached.flatMap((entry) => entry.refs))].sort(
        (a, b) => a.objectNumber - b.objectNumber,
      );
      const tree = context.obj({ Type: "Pages", Kids: kids, Count: kids.length });
      const catalog = context.obj({ Type: "Catalog", Pages: pagesRef });
      const objects = [
        ...refs.map((ref) => ({ ref, parts: partsOf(ref, pagesRef) })),
        { ref: pagesRef, parts: serialize(pagesRef, tree) },
        { ref: catalogRef, parts: serialize(catalogRef, catalog) },
      ];
      let offset = header.length;
      const placed = objects.map(({ ref, parts }) => {
        const at = offset;
        for (const part of parts) offset += part.length;
        return { ref, offset: at, parts };
      });
      const trailer = encoder.encode(
        `${crossReferenceTable(placed)}trailer\n<< /Size ${catalogRef.objectNumber + 1} /Root ${catalogRef} >>\nstartxref\n${offset}\n%%EOF\n`,
      );
      const output = new Uint8Array(offset + trailer.length);
      output.set(header);
      for (const object of placed) {
        let at = object.offset;
        for (const part of object.parts) {
          output.set(part, at);
          at += part.length;
        }
      }
      output.set(trailer, offset);
      return output;
    },
  };
}

/** A classic cross-reference table: object 0, then one subsection per run of consecutive object numbers. */
function crossReferenceTable(objects: readonly { ref: PDFRef; offset: number }[]): string {
  const lines = ["xref", "0 1", "0000000000 65535 f\r"];
  let run: string[] = [];
  let runStart = -1;
  const flush = () => {
    if (run.length > 0) lines.push(`${runStart} ${run.length}`, ...run);
  };
  for (const { ref, offset } of objects) {
    if (ref.objectNumber !== runStart + run.length) {
      flush();
      run = [];
      runStart = ref.objectNumber;
    }
    run.push(`${String(offset).padStart(10, "0")} ${String(ref.generationNumber).padStart(5, "0")} n\r`);
  }
  flush();
  return `${lines.join("\n")}\n`;
}
