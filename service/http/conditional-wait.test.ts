import { describe, expect, it } from "vitest";
import { entityTag, noneMatch, preferredWaitMs } from "./conditional-wait.ts";

describe("long-poll headers", () => {
  it("honours Prefer: wait among other preferences, up to 30 s", () => {
    expect(preferredWaitMs("wait=5")).toBe(5000);
    expect(preferredWaitMs("respond-async, wait=12")).toBe(12_000);
    expect(preferredWaitMs("Wait = 3")).toBe(3000);
    expect(preferredWaitMs("wait=600")).toBe(30_000);
    expect(preferredWaitMs("handling=lenient")).toBe(0);
    expect(preferredWaitMs(undefined)).toBe(0);
  });

  it("matches If-None-Match lists, weak tags and *", () => {
    const tag = entityTag('{"documents":[]}');
    expect(tag).toBe(entityTag('{"documents":[]}'));
    expect(tag).not.toBe(entityTag('{"documents":[{}]}'));
    expect(noneMatch(undefined, tag)).toBe(true);
    expect(noneMatch(`"other", ${tag}`, tag)).toBe(false);
    expect(noneMatch(`W/${tag}`, tag)).toBe(false);
    expect(noneMatch("*", tag)).toBe(false);
    expect(noneMatch('"other"', tag)).toBe(true);
  });
});
