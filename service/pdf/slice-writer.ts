/**
 * Writes a few pages of a parsed PDF as a new PDF by reusing each object's serialized bytes. A slice holds
 * the pages, every object they reach (fonts, images, content streams, annotations), a new page tree and
 * catalog, and a cross-reference table; objects keep their numbers, so each is serialized once per document
 * and a later slice that reaches it again only copies its bytes.
 *
 * Hand-written because this is the slicer's hot path: pdf-lib's `copyPages` + `save` cloned and
 * re-serialized every font and image for every slice. Active content is dropped on the way (see
 * strip-actions.ts); references the slice leaves out (other pages, the original page tree) stay dangling,
 * which a reader treats as null (ISO 32000-1, 7.3.10).
 */
import { PDFArray, PDFDict, type PDFDocument, PDFName, type PDFObject, PDFRef, PDFStream } from "pdf-lib";
import { withoutActions } from "./strip-actions.ts";

const encoder = new TextEncoder();
const inheritedEntries = ["Resources", "MediaBox", "CropBox", "Rotate"].map((name) => PDFName.of(name));
const names = {
  type: PDFName.of("Type"),
  parent: PDFName.of("Parent"),
  beads: PDFName.of("B"),
};
/** Objects of the document's structure: a slice writes its own page tree and catalog. */
const structureTypes = new Set(["Page", "Pages", "Catalog"]);
const objectEnd = encoder.encode("\nendobj\n");
// The binary comment tells transfer tools the file is not text.
const header = new Uint8Array([...encoder.encode("%PDF-1.7\n%"), 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]);

export interface SliceWriter {
  readonly pageCount: number;
  /** A PDF of the pages at `indices` (0-based, in that order). */
  write(indices: readonly number[]): Uint8Array<ArrayBuffer>;
}

export function createSliceWriter(source: PDFDocument): SliceWriter {
  const { context } = source;
  const pages = source.getPages();
  const pageIndexByRef = new Map(pages.map((page, index) => [page.ref, index]));
  const pagesRef = PDFRef.of(context.largestObjectNumber + 1);
  const catalogRef = PDFRef.of(context.largestObjectNumber + 2);
  const serialized = new Map<PDFRef, Uint8Array>();
  const closures = new Map<number, PDFRef[]>();

  /** The page as a slice writes it: its inherited entries made its own, under the slice's page tree. */
  function pageDictionary(index: number): PDFDict {
    const leaf = pages[index]!.node;
    const page = PDFDict.withContext(context);
    for (const [key, value] of withoutActions(leaf).entries()) page.set(key, value);
    for (const name of inheritedEntries) {
      const value = page.has(name) ? undefined : leaf.getInheritableAttribute(name);
      if (value !== undefined) page.set(name, value);
    }
    page.set(names.parent, pagesRef);
    // Article beads chain to other pages' beads; a slice has no threads to follow.
    page.delete(names.beads);
    return page;
  }

  function isStructure(object: PDFObject): boolean {
    if (!(object instanceof PDFDict)) return false;
    const type = object.lookup(names.type);
    return type instanceof PDFName && structureTypes.has(type.decodeText());
  }

  /** The object as written: pages rebuilt, other dictionaries without their active content. */
  function written(ref: PDFRef): PDFObject | undefined {
    const index = pageIndexByRef.get(ref);
    if (index !== undefined) return pageDictionary(index);
    const object = context.lookup(ref);
    return object instanceof PDFDict ? withoutActions(object) : object;
  }

  /** The page's own object and every object it reaches, as written. */
  function closure(index: number): PDFRef[] {
    const cached = closures.get(index);
    if (cached) return cached;
    const root = pages[index]!.ref;
    const reached = [root];
    const seen = new Set<PDFRef>(reached);
    const pending: PDFObject[] = [pageDictionary(index)];
    for (let value = pending.pop(); value !== undefined; value = pending.pop()) {
      if (value instanceof PDFRef) {
        if (seen.has(value)) continue;
        seen.add(value);
        const object = written(value);
        if (object === undefined || isStructure(object)) continue;
        reached.push(value);
        pending.push(object);
      } else if (value instanceof PDFDict) {
        for (const [, entry] of value.entries()) pending.push(entry);
      } else if (value instanceof PDFArray) {
        pending.push(...value.asArray());
      } else if (value instanceof PDFStream) {
        pending.push(value.dict);
      }
    }
    closures.set(index, reached);
    return reached;
  }

  function serialize(ref: PDFRef, object: PDFObject): Uint8Array {
    const head = encoder.encode(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
    const size = object.sizeInBytes();
    const bytes = new Uint8Array(head.length + size + objectEnd.length);
    bytes.set(head);
    object.copyBytesInto(bytes, head.length);
    bytes.set(objectEnd, head.length + size);
    return bytes;
  }

  function bytesOf(ref: PDFRef): Uint8Array {
    const cached = serialized.get(ref);
    if (cached) return cached;
    const object = written(ref);
    if (object === undefined) throw new Error(`object ${ref} is missing`);
    const bytes = serialize(ref, object);
    serialized.set(ref, bytes);
    return bytes;
  }

  return {
    pageCount: pages.length,
    write(indices) {
      const kids = indices.map((index) => {
        const page = pages[index];
        if (!page)
          throw new RangeError(`page index ${index} is outside the document's ${pages.length} pages`);
        return page.ref;
      });
      const refs = [...new Set(indices.flatMap(closure))].sort((a, b) => a.objectNumber - b.objectNumber);
      const tree = context.obj({ Type: "Pages", Kids: kids, Count: kids.length });
      const catalog = context.obj({ Type: "Catalog", Pages: pagesRef });
      const parts = [header, ...refs.map(bytesOf), serialize(pagesRef, tree), serialize(catalogRef, catalog)];
      const offsets: number[] = [];
      let offset = 0;
      for (const part of parts) {
        offsets.push(offset);
        offset += part.length;
      }
      const objects = [...refs, pagesRef, catalogRef].map((ref, at) => ({ ref, offset: offsets[at + 1]! }));
      const trailer = encoder.encode(
        `${crossReferenceTable(objects)}trailer\n<< /Size ${catalogRef.objectNumber + 1} /Root ${catalogRef} >>\nstartxref\n${offset}\n%%EOF\n`,
      );
      const output = new Uint8Array(offset + trailer.length);
      for (const [at, part] of parts.entries()) output.set(part, offsets[at]!);
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
