/** Answer text → text and marker segments, the shape a renderer walks. */
import { type AnswerMarker, isMarkerPrefix, matchMarkerAt } from "./markers.ts";

export interface TextSegment {
  type: "text";
  text: string;
}

export type AnswerSegment = TextSegment | AnswerMarker;

export interface SegmentAnswerOptions {
  /**
   * True once the answer is complete (phase `done`): an unclosed marker at the end is then
   * plain text. While streaming (the default) it is left out, as the next snapshot completes it.
   */
  final?: boolean;
}

/**
 * Splits answer text into plain text, claim-end markers and citation markers. Text that looks
 * like a marker but is not one (`{{CIT:}}`, `{{GIST:x}}`) stays plain text. Adjacent text is
 * merged, and no segment is empty.
 *
 * @example
 * segmentAnswer("R is free{{GIST:1}} {{CIT:ref_8f3a2c1d}} and ope{{CIT:ref_");
 * // [{ type: "text", text: "R is free" }, { type: "claim", n: 1, marker: "{{GIST:1}}" },
 * //  { type: "text", text: " " }, { type: "citation", id: "ref_8f3a2c1d", marker: "{{CIT:ref_8f3a2c1d}}" },
 * //  { type: "text", text: " and ope" }]
 */
export function segmentAnswer(text: string, options: SegmentAnswerOptions = {}): AnswerSegment[] {
  const segments: AnswerSegment[] = [];
  let plainStart = 0;
  let index = text.indexOf("{");
  while (index !== -1) {
    const marker = matchMarkerAt(text, index);
    if (marker !== null) {
      pushText(segments, text.slice(plainStart, index));
      segments.push(marker);
      plainStart = index + marker.marker.length;
      index = text.indexOf("{", plainStart);
    } else if (options.final !== true && isMarkerPrefix(text, index)) {
      pushText(segments, text.slice(plainStart, index));
      return segments;
    } else {
      index = text.indexOf("{", index + 1);
    }
  }
  pushText(segments, text.slice(plainStart));
  return segments;
}

function pushText(segments: AnswerSegment[], text: string): void {
  if (text !== "") segments.push({ type: "text", text });
}
