import { describe, expect, it } from "vitest";
import { cleanText, countNonSpace } from "./text-clean.ts";

describe("cleanText", () => {
  it("removes NUL, control characters, soft hyphens and zero-width marks", () => {
    expect(cleanText("da\u0000ta\u0007base\u00AD\u200Bs\u0088")).toBe("databases");
  });

  it("turns tabs, line breaks and unusual spaces into plain spaces", () => {
    expect(cleanText("a\tb\nc\u00A0d\u2009e")).toBe("a b c d e");
  });

  it("returns ordinary text unchanged", () => {
    const text = "Regular expressions — “quoted” and naïve, 5.4.2 (apt.conf).";
    expect(cleanText(text)).toBe(text);
  });

  it("counts characters that are not spaces", () => {
    expect(countNonSpace(" a b  c ")).toBe(3);
  });
});
