import { expect, test } from "@playwright/test";

test("before its settings exist, the home page introduces Cited and says what to set", async ({ page }) => {
  // This server runs without the app's settings (only the harness's); the app's own specs start their own.
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Cited" })).toBeVisible();
  await expect(page.getByText("exact lines of the page")).toBeVisible();
  await expect(page.getByTestId("setup-needed")).toContainText("CITED_API_KEY");
  await page.goto("/chat");
  await expect(page).toHaveURL(/\/$/);
});
