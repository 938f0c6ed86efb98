/** Builds passage-sized blocks (prose, lists, code, images) shared by the Markdown, plain-text and HTML readers. */

import type { BlockEvidence } from "../../domain.ts";
import { splitSentences } from "../sentences.ts";
import type { TextSourceBlock } from "../types.ts";

/** Above this many words a paragraph is cut into several blocks so a passage stays retrieval-sized. */
const MAX_BLOCK_WORDS = 220;
const MAX_CODE_LINES = 40;

export interface ImageInput {
  alt: string;
  caption?: string | null;
  url: string | null;
}

/** Prose cites the page it was saved from when there is one. */
export function proseEvidence(url: string | null): BlockEvidence {
  return url ? { kind: "external_link", url } : { kind: "paragraph" };
}

/** One paragraph's blocks (usually one; several when it is very long). */
export function paragraphBlocks(
  headingPath: string[],
  text: string,
  evidence: BlockEvidence,
): TextSourceBlock[] {
  return sentenceBlocks(headingPath, splitSentences(text), evidence);
}

/** A list as one block (cut when long): each item gives its own sentences. */
export function listBlocks(
  headingPath: string[],
  items: string[],
  evidence: BlockEvidence,
): TextSourceBlock[] {
  return sentenceBlocks(
    headingPath,
    items.flatMap((item) => splitSentences(item)),
    evidence,
  );
}

/** A code block: one sentence per non-blank line, so a citation can point at the exact command. */
export function codeBlocks(headingPath: string[], code: string, evidence: BlockEvidence): TextSourceBlock[] {
  const lines = code.split("\n").filter((line) => line.trim() !== "");
  const blocks: TextSourceBlock[] = [];
  for (let start = 0; start < lines.length; start += MAX_CODE_LINES) {
    const sentences = lines.slice(start, start + MAX_CODE_LINES).map((line) => ({ text: line.trimEnd() }));
    blocks.push({ headingPath: [...headingPath], sentences, evidence: asCode(evidence) });
  }
  return blocks;
}

/** Prose evidence marked as code; other kinds are left as they are. */
function asCode(evidence: BlockEvidence): BlockEvidence {
  return evidence.kind === "paragraph" || evidence.kind === "external_link"
    ? { ...evidence, code: true }
    : evidence;
}

/** An image block when the image has words to cite (alt text or a caption); null otherwise. */
export function imageBlock(headingPath: string[], image: ImageInput): TextSourceBlock | null {
  const alt = collapse(image.alt);
  const caption = collapse(image.caption ?? "");
  const texts = caption !== "" && caption !== alt ? [alt, caption] : [alt];
  const sentences = texts.filter((text) => text !== "").flatMap((text) => splitSentences(text));
  if (sentences.length === 0) return null;
  return {
    headingPath: [...headingPath],
    sentences: sentences.map((text) => ({ text })),
    evidence: { kind: "image", url: image.url, alt: alt || caption },
  };
}

/** Groups sentences into blocks of at most ~MAX_BLOCK_WORDS words, balanced so no block is a tiny tail. */
export function sentenceBlocks(
  headingPath: string[],
  sentences: string[],
  evidence: BlockEvidence,
): TextSourceBlock[] {
  if (sentences.length === 0) return [];
  const counts = sentences.map(wordCount);
  const total = counts.reduce((sum, count) => sum + count, 0);
  const target = total / Math.ceil(total / MAX_BLOCK_WORDS);
  const blocks: TextSourceBlock[] = [];
  let current: string[] = [];
  let words = 0;
  sentences.forEach((sentence, index) => {
    const count = counts[index] ?? 0;
    if (current.length > 0 && words + count / 2 > target) {
      blocks.push({ headingPath: [...headingPath], sentences: current.map((text) => ({ text })), evidence });
      current = [];
      words = 0;
    }
    current.push(sentence);
    words += count;
  });
  blocks.push({ headingPath: [...headingPath], sentences: current.map((text) => ({ text })), evidence });
  return blocks;
}

/** Whitespace collapsed to single spaces, trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

function wordCount(text: string): number {
  return text.split(" ").filter((word) => word !== "").length;
}
