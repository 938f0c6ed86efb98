/** HTML parsed as browsers do (parse5), with the few tree look-ups the readers need. */
import { type DefaultTreeAdapterTypes, parse, parseFragment } from "parse5";

export type HtmlElement = DefaultTreeAdapterTypes.Element;
export type HtmlNode = DefaultTreeAdapterTypes.Node;
type HtmlParent = DefaultTreeAdapterTypes.ParentNode;

/** Deeper nesting is flattened, so walking the tree never exhausts the call stack. */
const MAX_DEPTH = 256;

/** Parses a whole page; never throws on malformed markup. */
export function parseHtmlDocument(source: string): HtmlParent {
  return flattenDeepNesting(parse(source));
}

/** Parses a piece of a page (raw HTML inside Markdown) without adding html, head and body. */
export function parseHtmlFragment(source: string): HtmlParent {
  return flattenDeepNesting(parseFragment(source));
}

/** True for an element node (not text, a comment, a doctype or the document itself). */
export function isElement(node: HtmlNode): node is HtmlElement {
  return "tagName" in node;
}

/** The value of an attribute (names are lower case after parsing), or null when it is absent. */
export function attribute(element: HtmlElement, name: string): string | null {
  return element.attrs.find((attr) => attr.name === name)?.value ?? null;
}

/** All text under a node, in document order, whitespace as written; a `<br>` is a line break. */
export function textContent(node: HtmlNode): string {
  if (node.nodeName === "#text" && "value" in node) return node.value;
  if (isElement(node) && node.tagName === "br") return "\n";
  return "childNodes" in node ? node.childNodes.map(textContent).join("") : "";
}

/** The first element (depth first, `node` included) that satisfies `test`. */
export function findElement(node: HtmlNode, test: (element: HtmlElement) => boolean): HtmlElement | null {
  if (isElement(node) && test(node)) return node;
  if (!("childNodes" in node)) return null;
  for (const child of node.childNodes) {
    const found = findElement(child, test);
    if (found) return found;
  }
  return null;
}

/** Every element (depth first) that satisfies `test`. */
export function findElements(node: HtmlNode, test: (element: HtmlElement) => boolean): HtmlElement[] {
  const own = isElement(node) && test(node) ? [node] : [];
  if (!("childNodes" in node)) return own;
  return own.concat(node.childNodes.flatMap((child) => findElements(child, test)));
}

/**
 * Below MAX_DEPTH, every descendant becomes a direct child of its ancestor at that depth, in document
 * order (elements emptied), as a parser that stops nesting there would have built it.
 */
function flattenDeepNesting(root: HtmlParent): HtmlParent {
  const pending: { node: HtmlParent; depth: number }[] = [{ node: root, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { node, depth } = next;
    if (depth === MAX_DEPTH) {
      node.childNodes = descendants(node);
      continue;
    }
    for (const child of node.childNodes)
      if (isElement(child)) pending.push({ node: child, depth: depth + 1 });
  }
  return root;
}

function descendants(node: HtmlParent): DefaultTreeAdapterTypes.ChildNode[] {
  const found: DefaultTreeAdapterTypes.ChildNode[] = [];
  const stack: DefaultTreeAdapterTypes.ChildNode[] = [];
  const pushReversed = (nodes: DefaultTreeAdapterTypes.ChildNode[]) => {
    for (let index = nodes.length - 1; index >= 0; index -= 1) stack.push(nodes[index] as (typeof nodes)[0]);
  };
  pushReversed(node.childNodes);
  for (let child = stack.pop(); child; child = stack.pop()) {
    found.push(child);
    if (isElement(child)) {
      pushReversed(child.childNodes);
      child.childNodes = [];
    }
  }
  return found;
}
