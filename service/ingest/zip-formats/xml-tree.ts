/** The XML parts of zipped documents as a small tree: elements by local name, attributes by local name and namespace. */
import { Parser } from "htmlparser2";

export interface XmlAttribute {
  namespace: string | null;
  local: string;
  value: string;
}

export interface XmlElement {
  type: "element";
  /** The local name, without its prefix: `p` for `<w:p>`. */
  name: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
}

export interface XmlText {
  type: "text";
  text: string;
}

export type XmlNode = XmlElement | XmlText;

/** Namespace of the relationship ids (`r:id`, `r:embed`) that link OOXML parts. */
export const relationshipsNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/**
 * Parses one XML part, forgivingly: malformed markup is read as far as it goes (a damaged ZIP entry fails
 * its CRC first). Only the predefined and numeric entities are expanded, so a DOCTYPE cannot grow the text.
 */
export function parseXml(source: string): XmlElement {
  const root: XmlElement = { type: "element", name: "#document", attributes: [], children: [] };
  const stack: Array<{ element: XmlElement; scope: Map<string, string> }> = [
    { element: root, scope: new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]) },
  ];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const parent = stack[stack.length - 1];
        if (!parent) return;
        let scope = parent.scope;
        const list: XmlAttribute[] = [];
        let prefixed = false;
        for (const key in attributes) {
          const value = attributes[key] ?? "";
          if (key === "xmlns" || key.startsWith("xmlns:")) {
            if (scope === parent.scope) scope = new Map(scope);
            scope.set(key === "xmlns" ? "" : key.slice(6), value);
          } else {
            prefixed ||= key.includes(":");
            list.push({ namespace: null, local: key, value });
          }
        }
        // Prefixes resolve after the loop: a declaration may follow the attribute that uses it.
        if (prefixed) {
          for (const attribute of list) {
            const colon = attribute.local.indexOf(":");
            if (colon < 0) continue;
            attribute.namespace = scope.get(attribute.local.slice(0, colon)) ?? null;
            attribute.local = attribute.local.slice(colon + 1);
          }
        }
        const element: XmlElement = {
          type: "element",
          name: localName(name),
          attributes: list,
          children: [],
        };
        parent.element.children.push(element);
        stack.push({ element, scope });
      },
      ontext(text) {
        const current = stack[stack.length - 1]?.element;
        const last = current?.children.at(-1);
        if (last?.type === "text") last.text += text;
        else current?.children.push({ type: "text", text });
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(source);
  return root;
}

function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}

/** An attribute's value: the one in `namespace` when given, else an unprefixed one, else any of that local name. */
export function attribute(element: XmlElement, local: string, namespace?: string): string | null {
  const named = element.attributes.filter((candidate) => candidate.local === local);
  if (namespace !== undefined)
    return named.find((candidate) => candidate.namespace === namespace)?.value ?? null;
  return (named.find((candidate) => candidate.namespace === null) ?? named[0])?.value ?? null;
}

export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter(
    (node): node is XmlElement => node.type === "element" && (name === undefined || node.name === name),
  );
}

export function childElement(element: XmlElement, name: string): XmlElement | null {
  return childElements(element, name)[0] ?? null;
}

/** The first element down a path of local names, e.g. `path(root, "document", "body")`. */
export function path(element: XmlElement, ...names: string[]): XmlElement | null {
  let current: XmlElement | null = element;
  for (const name of names) current = current ? childElement(current, name) : null;
  return current;
}

/** Every element of that name under `element`, in document order (not looking inside a match). */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (node: XmlElement) => {
    for (const child of childElements(node)) {
      if (child.name === name) found.push(child);
      else visit(child);
    }
  };
  visit(element);
  return found;
}

/** All text under a node, concatenated. */
export function textOf(node: XmlNode): string {
  return node.type === "text" ? node.text : node.children.map(textOf).join("");
}

/** The `val` attribute (any namespace) of the element down `names`, as OOXML properties hold values: `<w:pStyle w:val="Heading1"/>`. */
export function valueAt(element: XmlElement, ...names: string[]): string | null {
  const found = path(element, ...names);
  return found ? attribute(found, "val") : null;
}
