import { describe, expect, it } from "vitest";
import { answerable, hitAt5 } from "./qa.ts";
import { benchRow, formatTable } from "./table.ts";

describe("hit@5", () => {
  const first = answerable[0]!;
  const expectedPage = first.pages[0]!;
  const origins = new Map([
    ["right", { fileName: first.doc!, pages: [expectedPage] }],
    ["other-page", { fileName: first.doc!, pages: [expectedPage + 100] }],
    ["other-file", { fileName: "another.pdf", pages: [expectedPage] }],
  ]);
  const share = (ids: string[]) => hitAt5([ids], origins) * answerable.length;

  it("counts a question whose expected page of its file is among the top five", () => {
    expect(share(["other-page", "other-file", "right"])).toBe(1);
  });

  it("does not count the right page of another file, another page, or a hit below rank five", () => {
    expect(share(["other-file", "other-page"])).toBe(0);
    expect(share(["other-page", "other-page", "other-page", "other-page", "other-page", "right"])).toBe(0);
  });
});

describe("the bench table", () => {
  it("shows each figure beside its floor with the ratio ours / floor", () => {
    const table = formatTable([
      benchRow("ingestion", "dev corpus", "pages/s", 40, "pdfjs ×2", 160),
      benchRow("ask", "first line p50", "ms", 12.5, "none", null),
    ]);
    const [header, , ingestion, ask] = table.split("\n");
    expect(header).toMatch(/ours\s+floor\/peer\s+floor\/peer is\s+unit\s+ours\/floor/);
    expect(ingestion).toMatch(/dev corpus\s+40\.0\s+160\s+pdfjs ×2\s+pages\/s\s+0\.25×$/);
    expect(ask).toMatch(/—\s+none\s+ms\s+—$/);
  });
});
