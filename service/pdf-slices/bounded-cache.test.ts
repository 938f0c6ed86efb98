/** The slicer's caches stay within their entry and byte bounds, dropping the least recently used first. */
import { describe, expect, it } from "vitest";
import { BoundedCache } from "./bounded-cache.ts";

describe("BoundedCache", () => {
  it("keeps at most maxEntries, dropping the least recently used and saying which", () => {
    const evicted: string[] = [];
    const cache = new BoundedCache<number>({ maxEntries: 2, maxBytes: 1000 }, (key) => evicted.push(key));
    cache.set("a", 1, 10);
    cache.set("b", 2, 10);
    cache.get("a");
    cache.set("c", 3, 10);
    expect(cache.size).toBe(2);
    expect(cache.has("a")).toBe(true);
    expect(cache.has("b")).toBe(false);
    expect(evicted).toEqual(["b"]);
  });

  it("keeps the summed size at most maxBytes, whatever the entry count", () => {
    const cache = new BoundedCache<string>({ maxEntries: 100, maxBytes: 100 });
    for (let index = 0; index < 50; index += 1) {
      cache.set(`slice-${index}`, "pdf", 30);
      expect(cache.bytes).toBeLessThanOrEqual(100);
    }
    expect(cache.size).toBe(3);
    expect(cache.get("slice-49")).toBe("pdf");
    expect(cache.get("slice-46")).toBeUndefined();
  });

  it("does not keep a value larger than the whole budget, nor count a replaced value twice", () => {
    const cache = new BoundedCache<string>({ maxEntries: 10, maxBytes: 100 });
    cache.set("small", "x", 60);
    cache.set("small", "y", 60);
    expect(cache.bytes).toBe(60);
    cache.set("huge", "z", 101);
    expect(cache.has("huge")).toBe(false);
    expect(cache.get("small")).toBe("y");
  });
});
