/** Active content (scripts, launches) never leaves the service inside a slice; plain links stay. */
import { PDFDocument, PDFHexString, PDFName, type PDFObject, PDFString } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { createSliceWriter, pageSourceOf } from "./slice-writer.ts";
import { mayCarryActions } from "./strip-actions.ts";

async function scriptedPdf(): Promise<PDFDocument> {
  const document = await PDFDocument.create();
  const page = document.addPage([400, 300]);
  const { context } = document;
  const action = (fields: Record<string, PDFObject | string>) =>
    context.register(context.obj({ Type: "Action", ...fields }));
  const script = action({ S: "JavaScript", JS: PDFString.of("app.alert(1)") });
  document.catalog.set(PDFName.of("OpenAction"), script);
  page.node.set(PDFName.of("AA"), context.obj({ O: script }));
  const annotation = (a: PDFObject) =>
    context.register(context.obj({ Type: "Annot", Subtype: "Link", Rect: [0, 0, 10, 10], A: a }));
  const launch = action({ S: "Launch", F: PDFString.of("calc.exe") });
  const uriThenScript = action({ S: "URI", URI: PDFString.of("https://example.test"), Next: script });
  const uri = action({ S: "URI", URI: PDFString.of("https://docs.example.test") });
  page.node.set(
    PDFName.of("Annots"),
    context.obj([annotation(script), annotation(launch), annotation(uriThenScript), annotation(uri)]),
  );
  return document;
}

describe("a slice of a page with active content", () => {
  it("removes open actions, additional actions, scripts and launches, even chained after a link; keeps plain links", async () => {
    const document = await scriptedPdf();
    const before = await document.save({ useObjectStreams: false });
    expect(mayCarryActions(before)).toBe(true);

    const after = createSliceWriter(pageSourceOf(document)).write([0]);

    expect(mayCarryActions(after)).toBe(false);
    expect(Buffer.from(after).toString("latin1")).toContain("https://docs.example.test");
    expect((await PDFDocument.load(after)).getPageCount()).toBe(1);
  });

  it("copies a page without active content as it was", async () => {
    const document = await PDFDocument.create();
    document.addPage([123, 456]);
    const slice = createSliceWriter(pageSourceOf(document)).write([0]);
    expect((await PDFDocument.load(slice)).getPage(0).getSize()).toEqual({ width: 123, height: 456 });
    expect(mayCarryActions(slice)).toBe(false);
  });
});

describe("a slice of a page with links", () => {
  it("drops a link whose address is not http(s): javascript:, file:, data:, in plain or hex strings", async () => {
    const document = await PDFDocument.create();
    const page = document.addPage([400, 300]);
    const { context } = document;
    const link = (uri: PDFObject) =>
      context.register(
        context.obj({
          Type: "Annot",
          Subtype: "Link",
          Rect: [0, 0, 10, 10],
          A: context.obj({ S: "URI", URI: uri }),
        }),
      );
    page.node.set(
      PDFName.of("Annots"),
      context.obj([
        link(PDFString.of("javascript:alert(1)")),
        link(PDFHexString.fromText("file:///etc/passwd")),
        link(PDFString.of("  data:text/html,hello")),
        // An address kept as an object of its own, which a byte scan sees only as a reference.
        link(context.register(PDFString.of("javascript:alert(2)"))),
        link(PDFString.of("https://docs.example.test/safe")),
      ]),
    );
    const before = await document.save({ useObjectStreams: false });
    expect(mayCarryActions(before)).toBe(true);

    const after = createSliceWriter(pageSourceOf(document)).write([0]);

    const text = Buffer.from(after).toString("latin1");
    expect(text).not.toMatch(/javascript:|data:text/);
    expect(text).not.toContain(PDFHexString.fromText("file:///etc/passwd").toString());
    expect(text).toContain("https://docs.example.test/safe");
    expect(mayCarryActions(after)).toBe(false);
  });
});

describe("the quick check for slices that need cleaning", () => {
  it("flags a link whose address is an object of its own, which bytes cannot show to be http(s)", async () => {
    const document = await PDFDocument.create();
    const page = document.addPage([400, 300]);
    const { context } = document;
    const address = context.register(PDFString.of("javascript:alert(3)"));
    const action = context.obj({ S: "URI", URI: address });
    page.node.set(
      PDFName.of("Annots"),
      context.obj([context.obj({ Type: "Annot", Subtype: "Link", Rect: [0, 0, 10, 10], A: action })]),
    );
    expect(mayCarryActions(await document.save({ useObjectStreams: false }))).toBe(true);
  });
});

describe("active content that is not a page's or an annotation's own /A", () => {
  it("is removed from direct annotations, other action keys and chained actions; links stay", async () => {
    const document = await PDFDocument.create();
    const page = document.addPage([400, 300]);
    const { context } = document;
    const script = () => context.obj({ S: "JavaScript", JS: PDFString.of("app.alert(2)") });
    const uri = context.obj({ S: "URI", URI: PDFString.of("https://docs.example.test") });
    page.node.set(
      PDFName.of("Annots"),
      context.obj([
        // Written into the page, not as objects of their own.
        context.obj({
          Type: "Annot",
          Subtype: "Link",
          Rect: [0, 0, 9, 9],
          A: script(),
          AA: context.obj({ E: script() }),
        }),
        context.obj({ Type: "Annot", Subtype: "Link", Rect: [0, 0, 9, 9], PA: context.register(script()) }),
        context.obj({
          Type: "Annot",
          Subtype: "Link",
          Rect: [0, 0, 9, 9],
          A: context.obj({ S: "GoToR", F: PDFString.of("other.pdf") }),
        }),
        context.obj({
          Type: "Annot",
          Subtype: "Link",
          Rect: [0, 0, 9, 9],
          A: context.obj({ S: "URI", URI: PDFString.of("https://example.test"), Next: [script()] }),
        }),
        context.obj({ Type: "Annot", Subtype: "Link", Rect: [0, 0, 9, 9], A: uri }),
      ]),
    );

    const slice = createSliceWriter(pageSourceOf(document)).write([0]);

    const text = Buffer.from(slice).toString("latin1");
    expect(text).not.toContain("app.alert");
    expect(text).not.toContain("other.pdf");
    expect(mayCarryActions(slice)).toBe(false);
    expect(text).toContain("https://docs.example.test");
    expect(text).toContain("https://example.test");
    expect((await PDFDocument.load(slice)).getPageCount()).toBe(1);
  });
});
