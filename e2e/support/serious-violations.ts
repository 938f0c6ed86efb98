/** axe on the page as it is now: its serious and critical violations, each with where it is. */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .map((node) => node.target.join(" "))
          .join(", ")}`,
    );
}
