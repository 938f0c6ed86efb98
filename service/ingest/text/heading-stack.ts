/** The chain of headings above the current line, outermost first, as readers walk a document. */

export class HeadingStack {
  #entries: { level: number; text: string }[] = [];

  /** Opens a heading of `level` (1 = outermost), closing any at the same or a deeper level. */
  enter(level: number, text: string): void {
    while ((this.#entries.at(-1)?.level ?? 0) >= level) this.#entries.pop();
    if (text !== "") this.#entries.push({ level, text });
  }

  /** The heading path for blocks read from here on. */
  get path(): string[] {
    return this.#entries.map((entry) => entry.text);
  }
}
