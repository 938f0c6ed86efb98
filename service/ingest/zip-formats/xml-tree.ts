/** The XML parts of zipped documents as a small tree: elements by local name, attributes by local name and namespace. */
import { XMLParser } from "fast-xml-parser";

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

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Character references (&#x263A;) are decoded only with this on; named HTML entities are harmless in these parts.
  htmlEntities: true,
});

type ParsedNode = Record<string, unknown>;

/** Parses one XML part; malformed markup is read as far as it goes (a damaged ZIP entry fails its CRC first). */
export function parseXml(source: string): XmlElement {
  const root: XmlElement = { type: "element", name: "#document", attributes: [], children: [] };
  root.children = convert(
    parser.parse(source) as ParsedNode[],
    new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]),
  );
  return root;
}

function convert(nodes: ParsedNode[], scope: Map<string, string>): XmlNode[] {
  const result: XmlNode[] = [];
  for (const node of nodes) {
    const rawAttributes = (node[":@"] ?? {}) as Record<string, string>;
    for (const [key, value] of Object.entries(node)) {
      if (key === ":@") continue;
      if (key === "#text") {
        result.push({ type: "text", text: String(value) });
        continue;
      }
      if (key.startsWith("?") || key === "#comment") continue;
      let inner = scope;
      for (const [name, uri] of Object.entries(rawAttributes)) {
        if (name === "xmlns" || name.startsWith("xmlns:")) {
          if (inner === scope) inner = new Map(scope);
          inner.set(name === "xmlns" ? "" : name.slice(6), uri);
        }
      }
      const attributes = Object.entries(rawAttributes)
        .filter(([name]) => name !== "xmlns" && !name.startsWith("xmlns:"))
        .map(([name, attributeValue]) => {
          const colon = name.indexOf(":");
          return colon < 0
            ? { namespace: null, local: name, value: attributeValue }
            : {
                namespace: inner.get(name.slice(0, colon)) ?? null,
                local: name.slice(colon + 1),
                value: attributeValue,
              };
        });
      const colon = key.indexOf(":");
      result.push({
        type: "element",
        name: colon < 0 ? key : key.slice(colon + 1),
        attributes,
        children: convert(value as ParsedNode[], inner),
      });
    }
  }
  return result;
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
