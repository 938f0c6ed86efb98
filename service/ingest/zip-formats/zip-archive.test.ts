/** Bad zipped documents fail with a reason a person can act on, whatever their kind. */
import { describe, expect, it } from "vitest";
import { uploadProblem } from "../read-source.ts";
import { readTextSource } from "../text/read-text-source.ts";
import { hostilePackages } from "./testing/hostile-packages.ts";

describe("hostile zipped documents", () => {
  it.each(hostilePackages())("$kind ($name) fails with a readable reason", ({ name, bytes, reason }) => {
    const refused = uploadProblem(name, bytes.subarray(0, 8), bytes.length);
    if (refused !== null) {
      expect(refused).toContain(reason);
      return;
    }
    expect(() => readTextSource(name, bytes)).toThrow(reason);
  });

  it.each(["docx", "pptx", "xlsx", "ods", "epub"])(
    "an empty .%s is refused as empty, at upload or when read",
    (extension) => {
      expect(uploadProblem(`empty.${extension}`, new Uint8Array(), 0)).toBe("The file is empty.");
      expect(() => readTextSource(`empty.${extension}`, new Uint8Array())).toThrow("The file is empty.");
    },
  );
});
