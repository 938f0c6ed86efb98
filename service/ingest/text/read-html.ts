/** Reads a saved HTML page: main content only, its title, and the page URL its blocks link to. */
import type { TextExtraction } from "../types.ts";
import { decodeSourceText } from "./decode-text.ts";
import { htmlBlocks } from "./html-blocks.ts";
import {
  attribute,
  findElement,
  findElements,
  type HtmlElement,
  type HtmlNode,
  parseHtmlDocument,
  textContent,
} from "./html-tree.ts";
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
  const document = parseHtmlDocument(text);
  const pageUrl =
    httpUrl(context.datasourceUrl) ??
    httpUrl(
      attributeOf(document, "link", "href", (element) =>
        /\bcanonical\b/iu.test(attribute(element, "rel") ?? ""),
      ),
    ) ??
    httpUrl(
      attributeOf(document, "meta", "content", (element) => attribute(element, "property") === "og:url"),
    );
  const baseUrl = pageUrl ?? httpUrl(attributeOf(document, "base", "href", () => true));
  const options = { evidence: proseEvidence(pageUrl), baseUrl };
  let { blocks, firstH1 } = htmlBlocks(contentRoot(document), options);
  // A page whose <main> holds nothing readable (a client-rendered shell) may still have text elsewhere.
  if (blocks.length === 0) ({ blocks, firstH1 } = htmlBlocks(document, options));
  const titleElement = findElement(document, (element) => element.tagName === "title");
  const title = (titleElement ? collapse(textContent(titleElement)) : "") || firstH1;
  return { title, blocks, warnings };
};

/** The main content: `<main>`, else a lone `<article>`, else `<body>`, else the whole document. */
function contentRoot(document: HtmlNode): HtmlNode {
  const main = findElement(
    document,
    (element) => element.tagName === "main" || attribute(element, "role") === "main",
  );
  if (main) return main;
  const articles = findElements(document, (element) => element.tagName === "article");
  if (articles.length === 1 && articles[0]) return articles[0];
  return findElement(document, (element) => element.tagName === "body") ?? document;
}

function attributeOf(
  document: HtmlNode,
  name: string,
  attributeName: string,
  test: (element: HtmlElement) => boolean,
): string | null {
  const found = findElement(document, (element) => element.tagName === name && test(element));
  return found ? attribute(found, attributeName) : null;
}

/** The charset a page declares in its first 1024 bytes (`<meta charset>` or `http-equiv` content type). */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/iu.exec(head)?.[1];
}
