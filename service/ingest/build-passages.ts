/** Groups a source's sentences into retrieval-sized passages under their headings, keeping every position. */
import type { ReferenceKind } from "../../sdk/core/wire.ts";
import type { PassageEvidence, StoredPassage, StoredSentence } from "../domain.ts";
import { durableId } from "../ids.ts";
import type { SourceBlock, SourceSentence, TextSourceBlock } from "./types.ts";

/** Measured on the dev QA set: see the issue notes; passages of ~80–220 words retrieve best there. */
export const passageWords = { target: 150, max: 250 } as const;

export interface PassageSource {
  assistantId: string;
  datasourceId: string;
  documentId: string;
  sha256: string;
  title: string;
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

interface Group {
  headingPath: string[];
  evidence: PassageEvidence;
  sentences: SourceSentence[];
}

/** Only plain paragraphs (and PDF or OCR'd image text) merge across blocks; every other evidence kind is its own passage. */
const mergeable = (evidence: PassageEvidence) =>
  evidence.kind === "pdf_highlight" ||
  evidence.kind === "paragraph" ||
  (evidence.kind === "image" && evidence.ocr === true);

const isCode = (evidence: PassageEvidence) => "code" in evidence && evidence.code === true;

function sameHeading(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

function groupBlocks(blocks: ReadonlyArray<SourceBlock | TextSourceBlock>): Group[] {
  const groups: Group[] = [];
  const open: { group: Group | null; words: number } = { group: null, words: 0 };
  const flush = () => {
    if (open.group && open.group.sentences.length > 0) groups.push(open.group);
    open.group = null;
    open.words = 0;
  };
  for (const block of blocks) {
    const evidence: PassageEvidence = "evidence" in block ? block.evidence : { kind: "pdf_highlight" };
    const continues =
      open.group !== null &&
      mergeable(evidence) &&
      open.group.evidence.kind === evidence.kind &&
      isCode(open.group.evidence) === isCode(evidence) &&
      sameHeading(open.group.headingPath, block.headingPath) &&
      open.words < passageWords.target;
    if (!continues) flush();
    for (const sentence of block.sentences) {
      const words = wordCount(sentence.text);
      if (words === 0) continue;
      if (open.group && open.words > 0 && open.words + words > passageWords.max) {
        const full = open.group;
        flush();
        open.group = { headingPath: full.headingPath, evidence: full.evidence, sentences: [] };
      }
      open.group ??= { headingPath: block.headingPath, evidence, sentences: [] };
      open.group.sentences.push(sentence);
      open.words += words;
    }
    if (!mergeable(evidence)) flush();
  }
  flush();
  return groups;
}

function kindOf(evidence: PassageEvidence): ReferenceKind {
  return evidence.kind;
}

export function buildPassages(
  blocks: ReadonlyArray<SourceBlock | TextSourceBlock>,
  source: PassageSource,
): StoredPassage[] {
  return groupBlocks(blocks).map((group, ordinal) => {
    const sentences: StoredSentence[] = [];
    let text = "";
    for (const sentence of group.sentences) {
      if (text.length > 0) text += " ";
      const start = text.length;
      text += sentence.text;
      sentences.push({
        text: sentence.text,
        start,
        end: text.length,
        ...(sentence.spans ? { spans: sentence.spans } : {}),
      });
    }
    // An OCR'd image's spans are in pixels of "page" 0, not pages of a PDF.
    const pages =
      group.evidence.kind === "pdf_highlight"
        ? group.sentences.flatMap((sentence) => sentence.spans?.map((span) => span.page_index) ?? [])
        : [];
    return {
      id: durableId("psg", source.assistantId, source.datasourceId, source.sha256, ordinal, text),
      documentId: source.documentId,
      assistantId: source.assistantId,
      datasourceId: source.datasourceId,
      ordinal,
      kind: kindOf(group.evidence),
      text,
      heading: group.headingPath.join(" › "),
      title: source.title,
      sentences,
      evidence: group.evidence,
      pageStart: pages.length ? Math.min(...pages) : null,
      pageEnd: pages.length ? Math.max(...pages) : null,
    };
  });
}
