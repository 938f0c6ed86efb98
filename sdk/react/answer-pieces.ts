/** An answer's text → the pieces `CitedAnswer` draws: plain text, claims with their citation, inline chips. */
import { type AnswerState, resolveMarker, segmentAnswer, type TextSegment } from "../core/index.ts";
import type { MarkerTargets } from "../core/resolve-marker.ts";
import type { Claim, Reference } from "../core/wire.ts";

/** A reference as a citation shows it: the reference and its display number (null until numbered). */
export interface NumberedReference {
  reference: Reference;
  number: number | null;
}

export interface TextPiece {
  kind: "text";
  key: string;
  text: string;
}

/** `{{CIT:id}}`: an inline chip. `source` is null while the reference has not arrived yet. */
export interface ChipPiece {
  kind: "chip";
  key: string;
  referenceId: string;
  source: NumberedReference | null;
}

/**
 * The text of claim `n` up to its `{{GIST:n}}` marker, and the references that back it: the
 * claim's own, then those of `{{CIT:id}}` markers right after it, which it absorbs (one citation
 * button per claim, not a button and a chip for the same source).
 */
export interface ClaimPiece {
  kind: "claim";
  key: string;
  n: number;
  /** Null while the claim's record has not arrived yet (its marker came first). */
  claim: Claim | null;
  parts: Array<TextPiece | ChipPiece>;
  sources: NumberedReference[];
}

export type AnswerPiece = TextPiece | ChipPiece | ClaimPiece;

type AnswerContent = Pick<AnswerState, "text" | "claims" | "references" | "numbering" | "phase">;

// What stays outside a claim's highlight at its start: the spaces and punctuation left after the
// previous claim's marker (". " in "graphics{{GIST:1}} {{CIT:ref_a}}. It runs…").
const leadingFiller = /^[\s\p{P}]*/u;

/**
 * Splits an answer into pieces. Keys depend only on the text before a piece, so a longer snapshot
 * of the same answer keeps the keys (and so the DOM nodes) of everything it had already drawn.
 * While the answer streams, a half-written marker at the end is left out.
 */
export function answerPieces(answer: AnswerContent): AnswerPiece[] {
  const segments = segmentAnswer(answer.text, { final: answer.phase !== "streaming" });
  const pieces: AnswerPiece[] = [];
  let pending: Array<TextPiece | ChipPiece> = [];
  let counter = 0;
  const nextKey = (prefix: string) => `${prefix}${counter++}`;
  // The claim just closed, while only spaces follow it: a `{{CIT:id}}` there is that claim's citation.
  let claimJustClosed: ClaimPiece | null = null;

  for (const segment of segments) {
    if (segment.type === "text") {
      if (segment.text.trim() !== "") claimJustClosed = null;
      pending.push(textPiece(segment, nextKey("t")));
    } else if (segment.type === "citation") {
      const source = numbered(segment.id, answer);
      if (claimJustClosed) {
        if (source && !claimJustClosed.sources.some((known) => known.reference.id === segment.id)) {
          claimJustClosed.sources.push(source);
        }
        continue;
      }
      pending.push({ kind: "chip", key: nextKey("c"), referenceId: segment.id, source });
    } else {
      const { outside, inside } = splitLeadingFiller(pending, nextKey);
      pieces.push(...outside);
      const resolved = resolveMarker(segment, answer);
      const claim = resolved.kind === "claim" ? resolved.claim : null;
      claimJustClosed = {
        kind: "claim",
        key: `claim-${segment.n}-${nextKey("g")}`,
        n: segment.n,
        claim,
        parts: inside,
        sources: claim ? sourcesOf(claim, answer) : [],
      };
      pieces.push(claimJustClosed);
      pending = [];
    }
  }
  pieces.push(...pending);
  return pieces;
}

/** The references a claim cites, in the claim's order, skipping any the answer has not sent. */
function sourcesOf(claim: Claim, answer: MarkerTargets) {
  return claim.reference_ids.flatMap((id) => {
    const source = numbered(id, answer);
    return source ? [source] : [];
  });
}

function numbered(id: string, answer: MarkerTargets): NumberedReference | null {
  const resolved = resolveMarker({ type: "citation", id, marker: `{{CIT:${id}}}` }, answer);
  return resolved.kind === "reference" ? { reference: resolved.reference, number: resolved.number } : null;
}

function textPiece(segment: TextSegment, key: string): TextPiece {
  return { kind: "text", key, text: segment.text };
}

function splitLeadingFiller(
  parts: Array<TextPiece | ChipPiece>,
  nextKey: (prefix: string) => string,
): { outside: Array<TextPiece | ChipPiece>; inside: Array<TextPiece | ChipPiece> } {
  const outside: Array<TextPiece | ChipPiece> = [];
  let index = 0;
  for (; index < parts.length; index += 1) {
    const part = parts[index]!;
    if (part.kind === "chip") {
      outside.push(part);
      continue;
    }
    const filler = leadingFiller.exec(part.text)?.[0] ?? "";
    if (filler.length === part.text.length) {
      outside.push(part);
      continue;
    }
    if (filler.length > 0) {
      outside.push({ kind: "text", key: part.key, text: filler });
      return {
        outside,
        inside: [
          { kind: "text", key: nextKey("t"), text: part.text.slice(filler.length) },
          ...parts.slice(index + 1),
        ],
      };
    }
    break;
  }
  return { outside, inside: parts.slice(index) };
}
