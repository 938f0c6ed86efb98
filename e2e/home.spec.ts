import { expect, test } from "@playwright/test";

test("the home page introduces Cited", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Cited" })).toBeVisible();
  await expect(page.getByText("exact lines of the page")).toBeVisible();
});
