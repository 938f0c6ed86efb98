/** Turns one Markdown paragraph's inline syntax into plain text, collecting its images on the way. */
import { decodeHTML } from "entities";
import { attribute, findElement, parseHtmlFragment } from "./html-tree.ts";
import { collapse } from "./text-blocks.ts";

export interface InlineImage {
  alt: string;
  title: string | null;
  src: string;
}

export interface InlineText {
  text: string;
  images: InlineImage[];
}

/** Link reference definitions (`[label]: url "title"`), keyed by lower-cased label. */
export type LinkDefinitions = Map<string, { url: string; title: string | null }>;

// Bounded repeats keep every pattern linear on pathological input (a 50 kB line of "![![![…").
const TITLE = String.raw`(?:\s+(?:"([^"]{0,500})"|'([^']{0,500})'|\(([^)]{0,500})\)))?`;
const DESTINATION = String.raw`<?([^\s<>()]{0,2000}(?:\([^\s()]{0,500}\)[^\s<>()]{0,500}){0,5})>?`;
const INLINE_IMAGE = new RegExp(String.raw`!\[([^\]]{0,1000})\]\(\s*${DESTINATION}${TITLE}\s*\)`, "gu");
const REFERENCE_IMAGE = /!\[([^\]]{0,1000})\]\[([^\]]{0,200})\]/gu;
const LABEL = String.raw`\[((?:[^\[\]]|\[[^\]]{0,500}\]){0,1000})\]`;
const INLINE_LINK = new RegExp(
  String.raw`${LABEL}\((?:[^()\s]|\([^()]{0,500}\)){0,2000}(?:\s+(?:"[^"]{0,500}"|'[^']{0,500}'|\([^)]{0,500}\)))?\s*\)`,
  "gu",
);
const REFERENCE_LINK = new RegExp(String.raw`${LABEL}\[([^\]]{0,200})\]`, "gu");

/**
 * Renders inline Markdown as the text a reader sees: emphasis markers, link syntax and HTML tags go,
 * code spans keep their content verbatim, images are removed from the text and returned separately.
 */
export function renderInline(source: string, definitions: LinkDefinitions = new Map()): InlineText {
  const protectedParts: string[] = [];
  const protect = (value: string) => `\uE000${protectedParts.push(value) - 1}\uE001`;
  const images: InlineImage[] = [];

  let text = source
    .replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/gu, (_whole, _ticks: string, code: string) =>
      protect(/^ .* $/su.test(code) ? code.slice(1, -1) : code),
    )
    .replace(/\\([!-/:-@[-`{-~])/gu, (_whole, character: string) => protect(character))
    .replace(/<!--[\s\S]{0,5000}?-->/gu, "")
    .replace(
      INLINE_IMAGE,
      (_whole, alt: string, src: string, double?: string, single?: string, paren?: string) => {
        images.push({ alt: plain(alt), title: double ?? single ?? paren ?? null, src });
        return " ";
      },
    )
    .replace(REFERENCE_IMAGE, (whole, alt: string, label: string) => {
      const definition = definitions.get((label || alt).trim().toLowerCase());
      if (!definition) return whole;
      images.push({ alt: plain(alt), title: definition.title, src: definition.url });
      return " ";
    })
    .replace(/<img\b[^>]{0,2000}>/giu, (tag) => {
      const image = findElement(parseHtmlFragment(tag), (element) => element.tagName === "img");
      images.push({
        alt: (image && attribute(image, "alt")) ?? "",
        title: image && attribute(image, "title"),
        src: (image && attribute(image, "src")) ?? "",
      });
      return " ";
    })
    .replace(INLINE_LINK, (_whole, label: string) => label)
    .replace(REFERENCE_LINK, (whole, label: string, reference: string) =>
      definitions.has((reference || label).trim().toLowerCase()) ? label : whole,
    )
    .replace(/\[\^[^\]\s]+\]/gu, "")
    .replace(/\[([^\]]{1,200})\](?!\()/gu, (whole, label: string) =>
      definitions.has(label.trim().toLowerCase()) ? label : whole,
    )
    .replace(/<((?:https?|ftp|mailto):[^\s<>]+|[^\s<>@]+@[^\s<>@]+\.[a-z]+)>/giu, "$1")
    .replace(/<br\s*\/?>/giu, " ")
    .replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]{0,2000})?\/?>/gu, "");
  text = stripEmphasis(text);
  text = decodeHTML(text).replace(
    /\uE000(\d+)\uE001/gu,
    (_whole, index: string) => protectedParts[Number(index)] ?? "",
  );
  return { text: collapse(text), images };
}

/** Inline Markdown reduced to plain text (for headings, titles and table cells). */
export function plain(source: string): string {
  return renderInline(source).text;
}

function stripEmphasis(text: string): string {
  let result = text;
  // Outer markers first so "***both***" loses all six; underscores only at word edges (snake_case stays).
  for (const pattern of [
    /(\*\*\*|\*\*|\*)(?=\S)([\s\S]{0,1000}?\S)\1/gu,
    /(?<![\p{L}\p{N}_])(___|__|_)(?=\S)([\s\S]{0,1000}?\S)\1(?![\p{L}\p{N}_])/gu,
    /(~~|==)(?=\S)([\s\S]{0,1000}?\S)\1/gu,
  ]) {
    let previous: string;
    do {
      previous = result;
      result = result.replace(pattern, "$2");
    } while (result !== previous);
  }
  return result;
}
