import { describe, expect, it } from "vitest";
import { HttpProblem } from "../../sdk/core/index.ts";
import { createHttpApp } from "./app.ts";

const logger = { error: () => {} };

const app = createHttpApp(logger, (routes) => {
  routes.get("/v1/thing", (context) => context.json({ ok: true }));
  routes.get("/v1/broken", () => {
    throw new HttpProblem(409, "conflict", "No.");
  });
});

const expected = {
  "content-security-policy":
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
};

describe("the service's security headers", () => {
  it.each([
    ["a success", "/v1/thing"],
    ["a problem", "/v1/broken"],
    ["an unknown route", "/nowhere"],
  ])("come with %s", async (_, path) => {
    const response = await app.request(`http://127.0.0.1${path}`);
    for (const [name, value] of Object.entries(expected))
      expect(response.headers.get(name), name).toBe(value);
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("add Strict-Transport-Security only over https, directly or behind a proxy that says so", async () => {
    const direct = await app.request("https://cited.example/v1/thing");
    expect(direct.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    const proxied = await app.request("http://127.0.0.1/v1/thing", {
      headers: { "X-Forwarded-Proto": "https" },
    });
    expect(proxied.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
  });
});
