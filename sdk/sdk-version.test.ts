/** One release number: what the README promises, what the CHANGELOG lists last and what the clients send. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SDK_VERSION } from "./core/version.ts";

const read = (name: string) => readFileSync(join(import.meta.dirname, name), "utf8");

describe("the SDK's release", () => {
  it("is the same in core/version.ts, the README, the CHANGELOG's newest entry and the OpenAPI document", () => {
    const readme = read("README.md").match(/Release \*\*([^*]+)\*\*/)?.[1];
    const newest = read("CHANGELOG.md").match(/^## (\S+)/m)?.[1];
    const openapi = (JSON.parse(read("openapi.json")) as { info: { version: string } }).info.version;
    expect({ readme, newest, openapi }).toEqual({
      readme: SDK_VERSION,
      newest: SDK_VERSION,
      openapi: SDK_VERSION,
    });
  });
});
