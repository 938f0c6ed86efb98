/** Per-file progress: bars redrawn in place on a terminal, one plain line per change otherwise. */
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";

type Shown = Pick<DocumentRecord, "status"> &
  Partial<Pick<DocumentRecord, "pages" | "pages_done" | "passages" | "passages_embedded" | "error">>;

const barWidth = 24;

function describe(shown: Shown): string {
  switch (shown.status) {
    case "queued":
      return "queued";
    case "processing":
      return shown.pages ? `reading page ${shown.pages_done ?? 0}/${shown.pages}` : "reading";
    case "ready":
      return `ready: ${shown.pages ? `${shown.pages} pages, ` : ""}${shown.passages ?? 0} passages${
        shown.passages_embedded !== undefined ? `, ${shown.passages_embedded} by meaning` : ""
      }`;
    case "failed":
      return `failed: ${shown.error ?? "unknown reason"}`;
  }
}

function bar(shown: Shown): string {
  const fraction =
    shown.status === "ready" || shown.status === "failed"
      ? 1
      : shown.pages
        ? (shown.pages_done ?? 0) / shown.pages
        : 0;
  const filled = Math.round(fraction * barWidth);
  return `[${"#".repeat(filled)}${"-".repeat(barWidth - filled)}]`;
}

export function createProgressView(out: NodeJS.WriteStream, names: string[]) {
  const interactive = out.isTTY === true;
  const width = Math.min(40, Math.max(...names.map((name) => name.length)));
  const lines: Shown[] = names.map(() => ({ status: "queued" }));
  const printed = new Map<number, string>();
  let drawn = false;

  const render = (index: number) =>
    `${names[index]!.slice(0, width).padEnd(width)} ${bar(lines[index]!)} ${describe(lines[index]!)}`;

  function draw(): void {
    if (drawn) out.write(`\u001b[${names.length}A`);
    for (const index of names.keys()) out.write(`\u001b[2K${render(index)}\n`);
    drawn = true;
  }

  return {
    update(index: number, shown: Shown): void {
      lines[index] = shown;
      if (interactive) {
        draw();
        return;
      }
      const text = `${names[index]}: ${describe(shown)}`;
      if (printed.get(index) !== text) {
        printed.set(index, text);
        out.write(`${text}\n`);
      }
    },
    finish(outcome: { ready: number; failed: number; pages: number; seconds: number }): void {
      if (interactive) draw();
      const rate = outcome.seconds > 0 ? Math.round(outcome.pages / outcome.seconds) : 0;
      out.write(
        `${outcome.ready} ready, ${outcome.failed} failed; ${outcome.pages} pages in ${outcome.seconds.toFixed(1)} s (${rate} pages/s)\n`,
      );
    },
  };
}
