import { describe, expect, it } from "vitest";
import {
  allowedOrigins,
  datasourceOptions,
  devSignInAllowed,
  EnvironmentError,
  parseServerEnvironment,
} from "./env.ts";

const valid = {
  CITED_BASE_URL: "http://127.0.0.1:8787",
  CITED_ASSISTANT_ID: "asst_demo123",
  CITED_API_KEY: "cka_live_0123456789abcdef",
  CITED_SESSION_SECRET: "a".repeat(64),
};

describe("the app's settings", () => {
  it("fills the defaults and keeps the key on the server side", () => {
    const environment = parseServerEnvironment(valid);
    expect(environment.CITED_APP_ORIGIN).toBe("http://localhost:3000");
    expect(environment.CITED_APP_DATA_DIR).toBe(".data/app");
    expect(environment.NODE_ENV).toBe("development");
  });

  it("names every missing or malformed setting and where to look", () => {
    const attempt = () =>
      parseServerEnvironment({ ...valid, CITED_API_KEY: undefined, CITED_SESSION_SECRET: "short" });
    expect(attempt).toThrow(EnvironmentError);
    expect(attempt).toThrow(/CITED_API_KEY.*CITED_SESSION_SECRET.*\.env\.example/);
  });

  it("reads the search page's datasources as Name=ds_… pairs and refuses anything else", () => {
    expect(datasourceOptions("Manuals=ds_a1, Notes = ds_b2")).toEqual([
      { id: "ds_a1", name: "Manuals" },
      { id: "ds_b2", name: "Notes" },
    ]);
    expect(datasourceOptions("")).toEqual([]);
    expect(() => datasourceOptions("Manuals")).toThrow(/Name=ds_/);
    expect(
      parseServerEnvironment({ ...valid, CITED_DATASOURCES: "Manuals=ds_a1" }).CITED_DATASOURCES,
    ).toEqual([{ id: "ds_a1", name: "Manuals" }]);
    expect(() => parseServerEnvironment({ ...valid, CITED_DATASOURCES: "Manuals" })).toThrow(
      /CITED_DATASOURCES.*Name=ds_/,
    );
  });

  it("allows the development sign-in in production only when told to", () => {
    expect(devSignInAllowed({ NODE_ENV: "development", CITED_DEV_SIGN_IN: undefined })).toBe(true);
    expect(devSignInAllowed({ NODE_ENV: "production", CITED_DEV_SIGN_IN: undefined })).toBe(false);
    expect(devSignInAllowed({ NODE_ENV: "production", CITED_DEV_SIGN_IN: "allow" })).toBe(true);
  });

  it("accepts the app's origin, and in development its loopback twin too", () => {
    const development = { NODE_ENV: "development", CITED_APP_ORIGIN: "http://localhost:4000" } as const;
    expect(allowedOrigins(development)).toEqual(["http://localhost:4000", "http://127.0.0.1:4000"]);
    expect(allowedOrigins({ ...development, NODE_ENV: "production" })).toEqual(["http://localhost:4000"]);
    expect(allowedOrigins({ NODE_ENV: "development", CITED_APP_ORIGIN: "https://app.example.com/" })).toEqual(
      ["https://app.example.com"],
    );
  });
});
