/** The answer markers `{{GIST:n}}` and `{{CIT:id}}`: their grammar, in one place. */

/** `{{GIST:n}}`: the end of claim `n`. */
export interface ClaimMarker {
  type: "claim";
  n: number;
  /** The marker as written in the text. */
  marker: string;
}

/** `{{CIT:id}}`: an inline reference to the reference with durable id `id`. */
export interface CitationMarker {
  type: "citation";
  id: string;
  marker: string;
}

export type AnswerMarker = ClaimMarker | CitationMarker;

// Claim numbers start at 1; ids are URL-safe (the service's `ref_…`). Whether the claim or
// reference exists is for `resolveMarker` to say, not the grammar.
const markerPattern = /\{\{(?:GIST:([1-9][0-9]{0,8})|CIT:([A-Za-z0-9_-]{1,128}))\}\}/y;
const markerOpenings = ["{{GIST:", "{{CIT:"];
const longestUnclosedMarker = "{{CIT:".length + 128 + "}".length;
const unclosedMarkerPatterns = [/^\{\{GIST:[1-9][0-9]{0,8}\}?$/, /^\{\{CIT:[A-Za-z0-9_-]{1,128}\}?$/];

/**
 * Parses one whole marker (`"{{GIST:2}}"`, `"{{CIT:ref_8f3a2c1d}}"`); null for anything else.
 *
 * @example
 * parseMarker("{{GIST:2}}"); // { type: "claim", n: 2, marker: "{{GIST:2}}" }
 * parseMarker("{{CIT:}}");   // null
 */
export function parseMarker(text: string): AnswerMarker | null {
  const marker = matchMarkerAt(text, 0);
  return marker !== null && marker.marker.length === text.length ? marker : null;
}

/** The marker that starts exactly at `index` of `text`, if one does. */
export function matchMarkerAt(text: string, index: number): AnswerMarker | null {
  markerPattern.lastIndex = index;
  const match = markerPattern.exec(text);
  if (match === null) return null;
  const [marker, n, id] = match;
  if (n !== undefined) return { type: "claim", n: Number(n), marker };
  return { type: "citation", id: id ?? "", marker };
}

/**
 * True when `text` from `start` to its end could still grow into a marker (`"{{CIT:ref_a"`):
 * a streaming snapshot may stop mid-marker.
 */
export function isMarkerPrefix(text: string, start = 0): boolean {
  const length = text.length - start;
  if (length <= 0 || length > longestUnclosedMarker) return false;
  const rest = text.slice(start);
  return (
    markerOpenings.some((opening) => opening.startsWith(rest)) ||
    unclosedMarkerPatterns.some((pattern) => pattern.test(rest))
  );
}
