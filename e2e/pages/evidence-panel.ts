/** The evidence panel beside the chat (a bottom sheet on a phone): the cited PDF page with its highlight. */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { type HighlightFit, measureHighlight } from "../support/highlight-geometry.ts";

/**
 * A first PDF page waits for its slice, pdfjs's code and its worker: well under 10 s alone, but
 * seconds more when the other test worker's stack keeps both cores busy.
 */
const firstDrawTimeout = 30_000;

export class EvidencePanel {
  readonly page: Page;
  readonly root: Locator;
  readonly pdf: Locator;
  readonly highlights: Locator;
  readonly textLayer: Locator;
  readonly closeButton: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId("evidence-panel");
    this.pdf = this.root.getByTestId("cited-pdf-evidence");
    this.highlights = this.root.locator("[data-cited-highlight]");
    this.textLayer = this.root.locator(".react-pdf__Page__textContent span");
    this.closeButton = this.root.getByRole("button", { name: "Close evidence" });
  }

  /** Waits until the PDF page is drawn with its highlight and its text layer. */
  async expectPdfPage(pageNumber: number): Promise<void> {
    await expect(this.pdf).toBeVisible();
    await expect(this.pdf).toContainText(`page ${pageNumber}`);
    await expect(this.highlights.first()).toBeVisible({ timeout: firstDrawTimeout });
    await expect(this.textLayer.first()).toBeAttached();
  }

  /** The height of the cited lines on screen, in CSS pixels: how large a reader sees the text. */
  async citedLineHeight(): Promise<number> {
    const boxes = await this.highlights.evaluateAll((elements) =>
      elements.map((element) => element.getBoundingClientRect().height),
    );
    return Math.min(...boxes);
  }

  /**
   * The highlight covers the quoted sentence: at least 90% of the quote's characters lie inside
   * highlight boxes, and no box reaches more than a line beyond the quote. The text layer is
   * rebuilt after each redraw, so the fit is polled until it holds.
   */
  async expectHighlightOnQuote(pageIndex: number, quote: string): Promise<HighlightFit> {
    let fit: HighlightFit | undefined;
    await expect
      .poll(
        async () => {
          const measured = await measureHighlight(this.page, pageIndex, quote).catch(
            (error: Error) => error.message,
          );
          if (typeof measured === "string") return measured;
          fit = measured;
          return fit.coverage >= 0.9 && fit.outside <= fit.lineHeight && fit.boxes > 0
            ? true
            : JSON.stringify(fit);
        },
        { message: `the highlight on page ${pageIndex + 1} covers "${quote}"`, timeout: 15_000 },
      )
      .toBe(true);
    if (fit === undefined) throw new Error("the highlight was never measured");
    test.info().annotations.push({ type: "highlight fit", description: JSON.stringify(fit) });
    return fit;
  }

  async close(): Promise<void> {
    await this.closeButton.click();
    await expect(this.root).toBeHidden();
  }
}
