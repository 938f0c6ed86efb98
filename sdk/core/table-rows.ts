/** How a table's row reads as a sentence: what the service indexes and quotes, and how evidence finds the cited rows. */

/**
 * A row as one sentence: "column: value; column: value" (empty cells left out).
 *
 * @example
 * rowSentence(["Release", "Downloads"], ["12", "3400"]); // "Release: 12; Downloads: 3400"
 */
export function rowSentence(columns: readonly string[], row: readonly string[]): string {
  return columns
    .flatMap((column, index) => {
      const value = (row[index] ?? "").replace(/\s+/gu, " ").trim();
      return value === "" ? [] : [`${column}: ${value}`];
    })
    .join("; ");
}
