import { describe, expect, it } from "vitest";
import { querySnippet, queryWords } from "./query-snippet.ts";

const marked = (parts: ReturnType<typeof querySnippet>) =>
  parts.map((part) => (part.match ? `[${part.text}]` : part.text)).join("");

describe("a search result's snippet", () => {
  it("marks the query's words wherever they appear, whole words and their longer forms, in any case", () => {
    expect(
      marked(
        querySnippet(
          "Uploads wait in the DELAYED queue. An upload is delayed.",
          queryWords("delayed upload"),
        ),
      ),
    ).toBe("[Uploads] wait in the [DELAYED] queue. An [upload] is [delayed].");
  });

  it("starts at the sentence where the query's words first appear, saying that text came before", () => {
    const content = `${"Filler words here. ".repeat(40)}The delayed queue holds uploads. After it.`;
    const text = marked(querySnippet(content, queryWords("delayed queue"), 60));
    expect(text.startsWith("…The [delayed] [queue] holds uploads.")).toBe(true);
  });

  it("starts at the beginning when the query's words first appear in the first sentence", () => {
    expect(marked(querySnippet("The delayed queue holds uploads.", queryWords("queue")))).toBe(
      "The delayed [queue] holds uploads.",
    );
  });

  it("marks nothing for words of two letters or fewer, and shows the start when nothing matches", () => {
    expect(queryWords("is it ok to go")).toEqual([]);
    expect(marked(querySnippet("Short text.", queryWords("zebra")))).toBe("Short text.");
  });
});
