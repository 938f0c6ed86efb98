/** The file picker offers what the service reads, so no readable kind is hidden from the operator. */
import { expect, it } from "vitest";
import { imageExtensions } from "../../service/ingest/image/image-type.ts";
import { supportedTextExtensions } from "../../service/ingest/text/read-text-source.ts";
import { sourceFormats } from "./source-formats";

it("offers PDF and every extension the service's readers take", () => {
  expect([...sourceFormats].sort()).toEqual([".pdf", ...imageExtensions, ...supportedTextExtensions].sort());
});
