/** A marker → the claim or reference it stands for in an answer, or why it stands for nothing. */
import type { AnswerState } from "./answer-state.ts";
import { type AnswerMarker, parseMarker } from "./markers.ts";
import type { Claim, Reference } from "./schemas/reference.ts";

/**
 * - `invalid_marker`: the text is not a whole `{{GIST:n}}` / `{{CIT:id}}` marker.
 * - `unknown_claim` / `unknown_reference`: no such claim or reference in the answer (yet).
 */
export type MarkerMissReason = "invalid_marker" | "unknown_claim" | "unknown_reference";

export type MarkerResolution =
  | { kind: "claim"; claim: Claim }
  /** `number` is the display number from the answer's numbering, null until one is sent. */
  | { kind: "reference"; reference: Reference; number: number | null }
  | { kind: "miss"; marker: string; reason: MarkerMissReason };

/** The parts of an answer a marker resolves against (a saved message has them too). */
export type MarkerTargets = Pick<AnswerState, "claims" | "references" | "numbering">;

/**
 * Resolves `{{GIST:n}}` to claim n and `{{CIT:id}}` to reference id. Takes the marker text or a
 * parsed marker (e.g. a segment from `segmentAnswer`). A miss is a value, not an error: while
 * streaming, a marker may arrive before its claim or reference.
 *
 * @example
 * for (const segment of segmentAnswer(answer.text)) {
 *   if (segment.type === "text") continue;
 *   const resolved = resolveMarker(segment, answer);
 *   if (resolved.kind === "reference") showChip(resolved.number, resolved.reference.title);
 * }
 */
export function resolveMarker(marker: string | AnswerMarker, answer: MarkerTargets): MarkerResolution {
  const parsed = typeof marker === "string" ? parseMarker(marker) : marker;
  if (parsed === null) return { kind: "miss", marker: String(marker), reason: "invalid_marker" };
  if (parsed.type === "claim") {
    const claim = Object.hasOwn(answer.claims, parsed.n) ? answer.claims[parsed.n] : undefined;
    return claim === undefined
      ? { kind: "miss", marker: parsed.marker, reason: "unknown_claim" }
      : { kind: "claim", claim };
  }
  const reference = Object.hasOwn(answer.references, parsed.id) ? answer.references[parsed.id] : undefined;
  if (reference === undefined) return { kind: "miss", marker: parsed.marker, reason: "unknown_reference" };
  const number = Object.hasOwn(answer.numbering, parsed.id) ? answer.numbering[parsed.id] : undefined;
  return { kind: "reference", reference, number: number ?? null };
}
