/** A page at desktop (1280×900) and phone (390×844) width, light and dark, saved as a test's artifacts. */
import { type Page, test } from "@playwright/test";

const sizes = [
  { name: "desktop", viewport: { width: 1280, height: 900 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

/** Takes the four shots as `{prefix}-{desktop|phone}-{light|dark}.png`, then puts the viewport and theme back. */
export async function screenshotsAtBothWidths(page: Page, prefix: string): Promise<void> {
  const viewport = page.viewportSize();
  for (const size of sizes) {
    await page.setViewportSize(size.viewport);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      const path = test.info().outputPath(`${prefix}-${size.name}-${colorScheme}.png`);
      await page.screenshot({ path, fullPage: true });
      await test.info().attach(`${prefix}-${size.name}-${colorScheme}`, { path, contentType: "image/png" });
    }
  }
  await page.emulateMedia({ colorScheme: null });
  if (viewport) await page.setViewportSize(viewport);
}
