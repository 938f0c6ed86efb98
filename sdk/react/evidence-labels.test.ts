import { describe, expect, it } from "vitest";
import { pageLabel, pageRangeLabel } from "./evidence-labels.ts";

describe("page labels", () => {
  it("give the printed label and the file's page where the PDF prints another number", () => {
    expect(pageLabel({ page_index: 11, page_label: "6" })).toBe("p. 6 · page 12 of the file");
    expect(pageLabel({ page_index: 2, page_label: "iii" })).toBe("p. iii · page 3 of the file");
  });

  it("give the file's page alone where the PDF has no labels, or its label is that page's number", () => {
    expect(pageLabel({ page_index: 11 })).toBe("page 12");
    expect(pageLabel({ page_index: 11, page_label: null })).toBe("page 12");
    expect(pageLabel({ page_index: 11, page_label: "12" })).toBe("page 12");
  });

  it("name both ends of a quote across a page break, printed labels where both have one", () => {
    expect(pageRangeLabel({ page_index: 11, page_label: "6" }, { page_index: 12, page_label: "7" })).toBe(
      "pp. 6–7 · pages 12–13 of the file",
    );
    expect(pageRangeLabel({ page_index: 11 }, { page_index: 12 })).toBe("pages 12–13");
    expect(pageRangeLabel({ page_index: 11, page_label: "6" }, { page_index: 11, page_label: "6" })).toBe(
      "p. 6 · page 12 of the file",
    );
  });
});
