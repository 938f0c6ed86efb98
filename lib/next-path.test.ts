import { describe, expect, it } from "vitest";
import { safeNextUrl } from "./next-path.ts";

const origin = "https://app.example";

describe("where an emailed link may send the person", () => {
  it("goes on to a page of this app", () => {
    expect(safeNextUrl("/chat", origin)).toBe("https://app.example/chat");
    expect(safeNextUrl("/search?q=pumps", origin)).toBe("https://app.example/search?q=pumps");
  });

  it.each([
    ["a tab the browser drops", "/\t/evil.example"],
    ["a newline the browser drops", "/\n/evil.example"],
    ["a backslash read as a slash", "/\\evil.example"],
    ["a protocol-relative URL", "//evil.example"],
    ["another site", "https://evil.example"],
    ["a path that resolves to //", "/.//evil.example"],
    ["a script", "javascript:alert(1)"],
    ["nothing", null],
  ])("sends %s to the chat instead", (_what, next) => {
    const target = safeNextUrl(next, origin);
    expect(target).toBe("https://app.example/chat");
  });
});
