/** A conversation's title from its first question. */

/** Titles made from a first question are cut here, at a word boundary when one is near. */
const titleLength = 80;

/**
 * A conversation title from its first question: one line, at most 80 characters.
 *
 * @example
 * titleFrom("  What is R?\nAnd where does it run? "); // "What is R? And where does it run?"
 */
export function titleFrom(question: string): string {
  const line = question.replace(/\s+/g, " ").trim();
  // By code points, so an emoji is never cut in half.
  const characters = Array.from(line);
  if (characters.length <= titleLength) return line;
  const cut = characters.slice(0, titleLength - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${space > titleLength / 2 ? cut.slice(0, space) : cut}…`;
}
