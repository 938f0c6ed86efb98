/**
 * ImageEvidence in Chromium, on an answer the real service gave about an uploaded PNG it read with OCR: the
 * picture at the panel's width with the quoted lines boxed where they are drawn, at desktop and phone widths.
 */
import { expect, type Page, test } from "@playwright/test";
import type { HarnessAccount } from "../components/harness/evidence-harness.tsx";
import { reduceAnswerText } from "../sdk/core/index.ts";
import { publicPaths } from "../sdk/core/service-paths.ts";
import type { ImageReference } from "../sdk/core/wire.ts";
import { isOcrAvailable } from "../service/ingest/pdf/ocr.ts";
import {
  type PublicApiFixture,
  startPublicApiFixture,
  testSession,
  testUser,
} from "../service/testing/public-api-fixture.ts";
import { removeTemporaryDirectories } from "../service/testing/temporary-directory.ts";
import { renderTextImage } from "../service/testing/text-image.ts";
import { openHarness } from "./support/recorded-evidence.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";
import { seriousViolations } from "./support/serious-violations.ts";

test.describe.configure({ mode: "serial" });

const lines = [
  "Boiler room checklist",
  "",
  "The boiler pump must be primed with water before it starts.",
  "Check the relief valve every spring and replace its seal.",
  "Bleed the radiators once the system is warm.",
];

let fixture: PublicApiFixture | undefined;
let account: HarnessAccount;
let reference: ImageReference;

/** Asks, and records the answer's image reference with the image the service serves for it. */
async function recordImageAnswer(service: PublicApiFixture, key: string, message: string) {
  const response = await service.call({
    key,
    path: publicPaths.ask(service.assistant.id, testSession),
    body: { id_user: testUser, message },
  });
  const answer = reduceAnswerText(await response.text());
  const found = Object.values(answer.references).find(
    (candidate): candidate is ImageReference => candidate.kind === "image" && candidate.region !== undefined,
  );
  if (!found?.image) throw new Error(`no image reference in: ${answer.text}`);
  const served = await service.call({
    key,
    path: publicPaths.image(found.image.token),
    headers: { "X-External-User-Id": testUser },
  });
  const image = {
    base64: Buffer.from(await served.arrayBuffer()).toString("base64"),
    type: served.headers.get("Content-Type") ?? "",
  };
  return { answer, reference: found, image };
}

test.beforeAll(async () => {
  test.skip(!(await isOcrAvailable()), "tesseract with English data or pdftoppm is not installed");
  test.setTimeout(120_000);
  const picture = await renderTextImage(lines);
  // Chromium cannot draw a TIFF: the evidence then says so beside the quote.
  const scan = await renderTextImage(["The attic fan runs only between May and September."], "tiff");
  fixture = await startPublicApiFixture({
    files: [{ path: picture.path }, { path: scan.path }],
    env: { CKA_OCR: "auto" },
  });
  const { key } = await fixture.createKey(["ask"]);
  const png = await recordImageAnswer(fixture, key, "When must the boiler pump be primed?");
  const tiff = await recordImageAnswer(fixture, key, "When does the attic fan run?");
  reference = png.reference;
  account = {
    authScope: "e2e:tenant:alice",
    answers: [png, tiff].map(({ answer }, index) => ({
      messageId: answer.messageId ?? `msg_image000000${index}`,
      answer,
    })),
    slices: {},
    images: { [png.reference.id]: png.image, [tiff.reference.id]: tiff.image },
  };
});

test.afterAll(async () => {
  await fixture?.stop();
  removeTemporaryDirectories();
});

async function openImageEvidence(page: Page, answerIndex = 0) {
  await openHarness(page, [account]);
  await page
    .getByRole("region", { name: "Answer" })
    .nth(answerIndex)
    .getByTestId("cited-citation")
    .first()
    .click();
  const evidence = page.getByTestId("cited-image-evidence");
  if (answerIndex === 0) await expect(evidence.getByRole("img")).toBeVisible();
  return evidence;
}

test("the quoted lines are boxed on the picture, scaled with it", async ({ page }) => {
  const evidence = await openImageEvidence(page);
  const picture = await evidence.getByRole("img").boundingBox();
  const boxes = await evidence
    .getByTestId("cited-image-highlight")
    .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().toJSON()));
  expect(picture).not.toBeNull();
  expect(boxes.length).toBe(reference.region?.rects.length);
  const scale = (picture?.width ?? 0) / (reference.region?.image_width ?? 1);
  for (const [index, box] of boxes.entries()) {
    const [x0, y0, x1] = reference.region?.rects[index] ?? [0, 0, 0];
    // Within two CSS pixels of the OCR box, which grows a tenth of its height above and below.
    expect(Math.abs(box.left - ((picture?.x ?? 0) + x0 * scale))).toBeLessThan(2);
    expect(Math.abs(box.width - (x1 - x0) * scale)).toBeLessThan(2);
    expect(box.top).toBeLessThanOrEqual((picture?.y ?? 0) + y0 * scale + 1);
  }
  await expect(evidence.getByTestId("cited-image-quote")).toHaveText(reference.quote);
  expect(await seriousViolations(page)).toEqual([]);
});

test("a TIFF the browser cannot draw shows its quote and says why there is no picture", async ({ page }) => {
  const evidence = await openImageEvidence(page, 1);
  await expect(evidence.getByTestId("cited-image-quote")).toContainText("attic fan");
  await expect(evidence.getByRole("alert")).toHaveText(/cannot draw this image's format/);
});

test("screenshots of the image evidence at desktop and phone widths, light and dark", async ({ page }) => {
  await openImageEvidence(page);
  await screenshotsAtBothWidths(page, "image-evidence");
});
