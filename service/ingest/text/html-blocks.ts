/** Walks a parsed HTML body into blocks: headings, paragraphs, lists, code, tables and figures. */

import type { BlockEvidence } from "../../domain.ts";
import type { TextSourceBlock } from "../types.ts";
import { HeadingStack } from "./heading-stack.ts";
import {
  attribute,
  findElement,
  findElements,
  type HtmlElement,
  type HtmlNode,
  isElement,
  textContent,
} from "./html-tree.ts";
import { tableBlocks, tableFromRows } from "./table-blocks.ts";
import {
  codeBlocks,
  collapse,
  type ImageInput,
  imageBlock,
  listBlocks,
  paragraphBlocks,
} from "./text-blocks.ts";
import { resolveUrl } from "./urls.ts";

const SKIPPED = new Set(
  "head script style noscript template svg canvas iframe object embed nav select button datalist dialog map".split(
    " ",
  ),
);
const BLOCK = new Set(
  (
    "p div section article main header footer aside address blockquote details summary figcaption hr " +
    "center form fieldset legend caption tr td th body html hgroup search"
  ).split(" "),
);
const LIST = new Set(["ul", "ol", "dl", "menu"]);
const LIST_ITEM = new Set(["li", "dt", "dd"]);

export interface HtmlBlockOptions {
  evidence: BlockEvidence;
  /** Base for relative image addresses. */
  baseUrl: string | null;
}

/** The blocks of an HTML subtree, plus the text of its first h1 (a fallback document title). */
export function htmlBlocks(
  root: HtmlNode,
  options: HtmlBlockOptions,
): { blocks: TextSourceBlock[]; firstH1: string | null } {
  const walker = new HtmlBlockWalker(options);
  walker.walk(root);
  walker.flush();
  return { blocks: walker.blocks, firstH1: walker.firstH1 };
}

/** Collects inline text until a block boundary, then emits it as a paragraph or a list item. */
class HtmlBlockWalker {
  readonly blocks: TextSourceBlock[] = [];
  firstH1: string | null = null;
  #options: HtmlBlockOptions;
  #headings = new HeadingStack();
  #inline: string[] = [];
  #listItems: string[] | null = null;
  #pendingImages: ImageInput[] = [];
  // Inside a figure its images are already taken with their caption; nested <img> must not repeat them.
  #imagesTaken = false;

  constructor(options: HtmlBlockOptions) {
    this.#options = options;
  }

  walk(node: HtmlNode): void {
    if (node.nodeName === "#text" && "value" in node) {
      this.#inline.push(node.value);
      return;
    }
    if (!isElement(node)) {
      // The document or a fragment; comments and doctypes have no child nodes and add nothing.
      this.#walkChildren(node);
      return;
    }
    const name = node.tagName;
    if (SKIPPED.has(name) || isHidden(node)) return;
    const heading = /^h([1-6])$/u.exec(name);
    if (heading) {
      this.flush();
      const text = headingText(node);
      this.#headings.enter(Number(heading[1]), text);
      if (heading[1] === "1" && this.firstH1 === null && text !== "") this.firstH1 = text;
    } else if (name === "br") {
      this.#inline.push("\n");
    } else if (name === "img") {
      if (!this.#imagesTaken) this.#pendingImages.push(imageInput(node, null, this.#options.baseUrl));
    } else if (name === "pre") {
      this.flush();
      this.blocks.push(...codeBlocks(this.#headings.path, textContent(node), this.#options.evidence));
    } else if (name === "table" && isDataTable(node)) {
      this.flush();
      this.#readTable(node);
    } else if (name === "figure") {
      this.flush();
      this.#readFigure(node);
    } else if (LIST.has(name) && this.#listItems === null) {
      this.#readList(node);
    } else if (LIST.has(name) || LIST_ITEM.has(name) || BLOCK.has(name) || name === "table") {
      this.flush();
      this.#walkChildren(node);
      this.flush();
    } else {
      this.#walkChildren(node);
    }
  }

  /** Ends the current paragraph (or list item); images met inside it follow it. */
  flush(): void {
    const text = collapse(this.#inline.join(""));
    this.#inline = [];
    if (text !== "") {
      if (this.#listItems) this.#listItems.push(text);
      else this.blocks.push(...paragraphBlocks(this.#headings.path, text, this.#options.evidence));
    }
    if (this.#listItems) return;
    for (const image of this.#pendingImages) {
      const block = imageBlock(this.#headings.path, image);
      if (block) this.blocks.push(block);
    }
    this.#pendingImages = [];
  }

  #walkChildren(node: HtmlNode): void {
    if ("childNodes" in node) for (const child of node.childNodes) this.walk(child);
  }

  /** An outermost list becomes one block; nested lists add their items to it. */
  #readList(list: HtmlElement): void {
    this.flush();
    const items: string[] = [];
    this.#listItems = items;
    this.#walkChildren(list);
    this.flush();
    this.#listItems = null;
    this.blocks.push(...listBlocks(this.#headings.path, items, this.#options.evidence));
    this.flush();
  }

  #readTable(table: HtmlElement): void {
    const captionElement = findElement(table, (element) => element.tagName === "caption");
    const caption = captionElement ? collapse(textContent(captionElement)) : "";
    const rows = ownRows(table);
    const cells = rows.map((row) =>
      row.childNodes.flatMap((cell) => {
        if (!isElement(cell) || (cell.tagName !== "td" && cell.tagName !== "th")) return [];
        const span = Math.min(Number(attribute(cell, "colspan") ?? "1") || 1, 50);
        return Array.from({ length: span }, () => collapse(textContent(cell)));
      }),
    );
    const path = caption === "" ? this.#headings.path : [...this.#headings.path, caption];
    const header = rows[0] && isHeaderRow(table, rows[0]) ? "first" : "detect";
    for (const block of tableBlocks(path, tableFromRows(cells, header))) this.blocks.push(block);
  }

  #readFigure(figure: HtmlElement): void {
    const images = findElements(figure, (element) => element.tagName === "img");
    const captionElement = findElement(figure, (element) => element.tagName === "figcaption");
    if (images.length === 0) {
      this.#walkChildren(figure);
      this.flush();
      return;
    }
    const caption = captionElement ? collapse(textContent(captionElement)) : null;
    for (const image of images) this.#pendingImages.push(imageInput(image, caption, this.#options.baseUrl));
    this.#imagesTaken = true;
    for (const child of figure.childNodes) if (child !== captionElement) this.walk(child);
    this.#imagesTaken = false;
    this.flush();
  }
}

/** Heading text without the "¶" / "#" permalink many documentation generators append. */
function headingText(heading: HtmlElement): string {
  return collapse(textContent(heading)).replace(/\s*[¶§#🔗]$/u, "");
}

function imageInput(image: HtmlElement, caption: string | null, baseUrl: string | null): ImageInput {
  return {
    alt: attribute(image, "alt") ?? attribute(image, "title") ?? "",
    caption,
    url: resolveUrl(attribute(image, "src") ?? "", baseUrl),
  };
}

/** Layout tables (one column, or tables holding tables) are read as ordinary blocks, not as data. */
function isDataTable(table: HtmlElement): boolean {
  const nested = table.childNodes.some(
    (child) => findElement(child, (element) => element.tagName === "table") !== null,
  );
  const widths = ownRows(table).map((row) => row.childNodes.filter(isElement).length);
  return !nested && widths.some((width) => width >= 2) && widths.length >= 2;
}

/** Rows of this table only (inside thead/tbody/tfoot or directly under it), not of nested tables. */
function ownRows(table: HtmlElement): HtmlElement[] {
  return table.childNodes.flatMap((child) => {
    if (!isElement(child)) return [];
    if (child.tagName === "tr") return [child];
    if (child.tagName === "thead" || child.tagName === "tbody" || child.tagName === "tfoot") {
      return child.childNodes.filter((row): row is HtmlElement => isElement(row) && row.tagName === "tr");
    }
    return [];
  });
}

function isHidden(element: HtmlElement): boolean {
  return (
    attribute(element, "hidden") !== null ||
    attribute(element, "aria-hidden") === "true" ||
    /display\s*:\s*none/iu.test(attribute(element, "style") ?? "")
  );
}

/** A header row sits in <thead> or holds only <th> cells. */
function isHeaderRow(table: HtmlElement, row: HtmlElement): boolean {
  const inHead = table.childNodes.some(
    (child) => isElement(child) && child.tagName === "thead" && child.childNodes.includes(row),
  );
  const cells = row.childNodes.filter(isElement);
  return inHead || (cells.length > 0 && cells.every((cell) => cell.tagName === "th"));
}
