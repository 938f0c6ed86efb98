/** Turns one parsed Markdown inline run into the plain text a reader sees, collecting its images on the way. */
import type { Token } from "markdown-it";
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

/**
 * Emphasis markers, link syntax, footnote marks and HTML tags go, code spans keep their content
 * verbatim, images are removed from the text and returned separately.
 */
export function renderInline(inline: Token | undefined): InlineText {
  const images: InlineImage[] = [];
  const parts = (inline?.children ?? []).map((token) => {
    switch (token.type) {
      case "text":
      case "code_inline":
        return token.content;
      case "softbreak":
      case "hardbreak":
        return "\n";
      case "image":
        images.push({
          alt: token.content,
          title: textAttribute(token, "title"),
          src: textAttribute(token, "src") ?? "",
        });
        return " ";
      case "html_inline":
        return inlineHtml(token.content, images);
      default:
        return "";
    }
  });
  return { text: collapse(parts.join("")), images };
}

/** markdown-it types attribute values as strings or numbers; an image's are the strings it parsed. */
function textAttribute(token: Token, name: string): string | null {
  const value = token.attrGet(name);
  return value === null ? null : String(value);
}

/** An inline tag: an `<img>` is an image, a `<br>` a space; other tags and comments leave no text. */
function inlineHtml(tag: string, images: InlineImage[]): string {
  if (/^<br\b/iu.test(tag)) return " ";
  if (!/^<img\b/iu.test(tag)) return "";
  const image = findElement(parseHtmlFragment(tag), (element) => element.tagName === "img");
  images.push({
    alt: (image && attribute(image, "alt")) ?? "",
    title: image && attribute(image, "title"),
    src: (image && attribute(image, "src")) ?? "",
  });
  return " ";
}
