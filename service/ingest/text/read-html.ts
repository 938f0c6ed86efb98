/** Reads a saved HTML page: main content only, its title, and the page URL its blocks link to. */
import type { TextExtraction } from "../types.ts";
import { decodeSourceText } from "./decode-text.ts";
import { htmlBlocks } from "./html-blocks.ts";
import { findElement, findElements, type HtmlElement, parseHtml, textContent } from "./html-tree.ts";
import { collapse, proseEvidence } from "./text-blocks.ts";
import type { TextReader } from "./text-reader.ts";
import { httpUrl } from "./urls.ts";

/**
 * Reads an HTML file. Scripts, styles, navigation and the head are dropped; when the page has a `<main>`
 * (or a single `<article>`) only that is read. Blocks are `external_link` when the page URL is known
 * (`context.datasourceUrl`, else `<link rel=canonical>`, else `<meta property=og:url>`).
 * The title is `<title>`, else the first h1.
 */
export const readHtml: TextReader = (_fileName, bytes, context): TextExtraction => {
  const { text, warnings } = decodeSourceText(bytes, declaredCharset(bytes));
  const document = parseHtml(text);
  const pageUrl =
    httpUrl(context.datasourceUrl) ??
    httpUrl(
      attributeOf(document, "link", "href", (element) =>
        /\bcanonical\b/iu.test(element.attributes.get("rel") ?? ""),
      ),
    ) ??
    httpUrl(
      attributeOf(document, "meta", "content", (element) => element.attributes.get("property") === "og:url"),
    );
  const baseUrl = pageUrl ?? httpUrl(attributeOf(document, "base", "href", () => true));
  const options = { evidence: proseEvidence(pageUrl), baseUrl };
  let { blocks, firstH1 } = htmlBlocks(contentRoot(document), options);
  // A page whose <main> holds nothing readable (a client-rendered shell) may still have text elsewhere.
  if (blocks.length === 0) ({ blocks, firstH1 } = htmlBlocks(document, options));
  const titleElement = findElement(document, (element) => element.name === "title");
  const title = (titleElement ? collapse(textContent(titleElement)) : "") || firstH1;
  return { title, blocks, warnings };
};

/** The main content: `<main>`, else a lone `<article>`, else `<body>`, else the whole document. */
function contentRoot(document: HtmlElement): HtmlElement {
  const main = findElement(
    document,
    (element) => element.name === "main" || element.attributes.get("role") === "main",
  );
  if (main) return main;
  const articles = findElements(document, (element) => element.name === "article");
  if (articles.length === 1 && articles[0]) return articles[0];
  return findElement(document, (element) => element.name === "body") ?? document;
}

function attributeOf(
  document: HtmlElement,
  name: string,
  attribute: string,
  test: (element: HtmlElement) => boolean,
): string | null {
  return (
    findElement(document, (element) => element.name === name && test(element))?.attributes.get(attribute) ??
    null
  );
}

/** The charset a page declares in its first 1024 bytes (`<meta charset>` or `http-equiv` content type). */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/iu.exec(head)?.[1];
}
