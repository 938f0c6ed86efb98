/** A small forgiving HTML parser: enough tree (implied end tags, void and raw-text elements) to read saved pages. */
import { decodeEntities } from "./html-entities.ts";

export interface HtmlElement {
  type: "element";
  name: string;
  attributes: Map<string, string>;
  children: HtmlNode[];
}

export interface HtmlText {
  type: "text";
  text: string;
}

export type HtmlNode = HtmlElement | HtmlText;

const VOID = new Set(
  "area base br col embed hr img input link meta param source track wbr keygen frame basefont".split(" "),
);
const RAW_TEXT = new Set(["script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext"]);
const ESCAPABLE_RAW_TEXT = new Set(["title", "textarea"]);
const CLOSES_PARAGRAPH = new Set(
  (
    "address article aside blockquote details dialog div dl fieldset figcaption figure footer form " +
    "h1 h2 h3 h4 h5 h6 header hgroup hr main menu nav ol p pre section table ul li dd dt"
  ).split(" "),
);
/** When a start tag opens, the elements it implicitly closes, searched no further than the scope elements. */
const IMPLIED_CLOSE: Record<string, { closes: string[]; scope: string[] }> = {
  li: { closes: ["li"], scope: ["ul", "ol", "menu"] },
  dt: { closes: ["dt", "dd"], scope: ["dl"] },
  dd: { closes: ["dt", "dd"], scope: ["dl"] },
  tr: { closes: ["tr", "td", "th"], scope: ["table", "thead", "tbody", "tfoot"] },
  td: { closes: ["td", "th"], scope: ["tr", "table"] },
  th: { closes: ["td", "th"], scope: ["tr", "table"] },
  thead: { closes: ["thead", "tbody", "tfoot", "tr", "td", "th"], scope: ["table"] },
  tbody: { closes: ["thead", "tbody", "tfoot", "tr", "td", "th"], scope: ["table"] },
  tfoot: { closes: ["thead", "tbody", "tfoot", "tr", "td", "th"], scope: ["table"] },
  option: { closes: ["option"], scope: ["select", "datalist"] },
};
const PARAGRAPH_SCOPE = [
  "div",
  "section",
  "article",
  "main",
  "td",
  "th",
  "li",
  "dd",
  "blockquote",
  "figure",
  "body",
];

/** Deeper nesting is flattened, so walking the tree never exhausts the call stack. */
const MAX_DEPTH = 256;
/** A start tag longer than this is taken as text; it bounds the work on markup that never closes. */
const MAX_TAG_LENGTH = 4096;
const START_TAG =
  /^<([A-Za-z][A-Za-z0-9:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?|\s*\/(?!>))*)\s*(\/?)>/u;
const END_TAG = /<\/([A-Za-z][A-Za-z0-9:-]*)[^>]*>/y;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/gu;

/** Parses an HTML document into a tree under a `#document` root; never throws on malformed markup. */
export function parseHtml(source: string): HtmlElement {
  const root = element("#document", new Map());
  const stack: HtmlElement[] = [root];
  const current = () => stack.at(-1) ?? root;
  const appendText = (text: string) => {
    if (text !== "") current().children.push({ type: "text", text });
  };
  let position = 0;
  while (position < source.length) {
    const next = source.indexOf("<", position);
    if (next === -1) {
      appendText(decodeEntities(source.slice(position)));
      break;
    }
    appendText(decodeEntities(source.slice(position, next)));
    position = next;
    if (source.startsWith("<!--", position)) {
      const end = source.indexOf("-->", position + 4);
      position = end === -1 ? source.length : end + 3;
      continue;
    }
    if (source.startsWith("<![CDATA[", position)) {
      const end = source.indexOf("]]>", position);
      appendText(source.slice(position + 9, end === -1 ? source.length : end));
      position = end === -1 ? source.length : end + 3;
      continue;
    }
    if (source.startsWith("<!", position) || source.startsWith("<?", position)) {
      const end = source.indexOf(">", position);
      position = end === -1 ? source.length : end + 1;
      continue;
    }
    END_TAG.lastIndex = position;
    const endMatch = END_TAG.exec(source);
    if (endMatch) {
      closeElement(stack, (endMatch[1] ?? "").toLowerCase());
      position = END_TAG.lastIndex;
      continue;
    }
    const startMatch = START_TAG.exec(source.slice(position, position + MAX_TAG_LENGTH));
    if (!startMatch) {
      appendText("<");
      position += 1;
      continue;
    }
    position += startMatch[0].length;
    const name = (startMatch[1] ?? "").toLowerCase();
    const opened = element(name, readAttributes(startMatch[2] ?? ""));
    openElement(stack, opened);
    if (VOID.has(name) || startMatch[3] === "/" || stack.length >= MAX_DEPTH) continue;
    if (RAW_TEXT.has(name) || ESCAPABLE_RAW_TEXT.has(name)) {
      const closing = new RegExp(`</${name}\\s*>`, "iu");
      const match = closing.exec(source.slice(position));
      const end = match ? position + match.index : source.length;
      const raw = source.slice(position, end);
      if (raw !== "")
        opened.children.push({ type: "text", text: RAW_TEXT.has(name) ? raw : decodeEntities(raw) });
      position = match ? end + match[0].length : source.length;
      continue;
    }
    stack.push(opened);
  }
  return root;
}

/** Reads `name="value"` pairs (names lower-cased, entities decoded); a bare attribute has the value "". */
export function readAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? "").toLowerCase();
    if (!attributes.has(name)) attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ""));
  }
  return attributes;
}

/** All text under a node, in document order, whitespace as written. */
export function textContent(node: HtmlNode): string {
  if (node.type === "text") return node.text;
  return node.children.map(textContent).join(node.name === "br" ? "\n" : "");
}

/** The first element (depth first, `node` included) that satisfies `test`. */
export function findElement(node: HtmlNode, test: (element: HtmlElement) => boolean): HtmlElement | null {
  if (node.type === "text") return null;
  if (test(node)) return node;
  for (const child of node.children) {
    const found = findElement(child, test);
    if (found) return found;
  }
  return null;
}

/** Every element (depth first) that satisfies `test`. */
export function findElements(node: HtmlNode, test: (element: HtmlElement) => boolean): HtmlElement[] {
  if (node.type === "text") return [];
  const own = test(node) ? [node] : [];
  return own.concat(node.children.flatMap((child) => findElements(child, test)));
}

function element(name: string, attributes: Map<string, string>): HtmlElement {
  return { type: "element", name, attributes, children: [] };
}

function openElement(stack: HtmlElement[], opened: HtmlElement): void {
  const rule = IMPLIED_CLOSE[opened.name];
  if (rule) closeWithin(stack, rule.closes, rule.scope);
  if (CLOSES_PARAGRAPH.has(opened.name)) closeWithin(stack, ["p"], PARAGRAPH_SCOPE);
  (stack.at(-1) as HtmlElement).children.push(opened);
}

function closeWithin(stack: HtmlElement[], names: string[], scope: string[]): void {
  for (let index = stack.length - 1; index > 0; index -= 1) {
    const name = stack[index]?.name ?? "";
    if (names.includes(name)) {
      stack.length = index;
      return;
    }
    if (scope.includes(name)) return;
  }
}

function closeElement(stack: HtmlElement[], name: string): void {
  for (let index = stack.length - 1; index > 0; index -= 1) {
    if (stack[index]?.name === name) {
      stack.length = index;
      return;
    }
  }
}
