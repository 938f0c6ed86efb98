import { describe, expect, it } from "vitest";
import {
  allowedOrigins,
  browserSupabaseProject,
  datasourceOptions,
  devSignInAllowed,
  parseServerEnvironment,
  settingsProblem,
  supabaseProjectSettings,
} from "./env.ts";
import { EnvironmentError } from "./environment-error.ts";

const valid = {
  CITED_BASE_URL: "http://127.0.0.1:8787",
  CITED_ASSISTANT_ID: "asst_demo123",
  CITED_API_KEY: "not-a-real-key-for-env-tests",
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

  it("explains a half-set console, which would otherwise fail every signed-in page", () => {
    expect(settingsProblem(valid)).toBeNull();
    expect(settingsProblem({ ...valid, CITED_ADMIN_URL: "http://127.0.0.1:8787" })).toMatch(
      /CITED_ADMIN_URL and CITED_ADMIN_TOKEN/,
    );
    expect(settingsProblem({ ...valid, CITED_ADMIN_TOKEN: "short" })).toMatch(/CITED_ADMIN_TOKEN/);
    expect(settingsProblem({ ...valid, CITED_API_KEY: undefined })).toMatch(/CITED_API_KEY/);
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
    const embedded = { kind: "embedded", sessionSecret: valid.CITED_SESSION_SECRET } as const;
    expect(devSignInAllowed({ NODE_ENV: "development", CITED_DEV_SIGN_IN: undefined, auth: embedded })).toBe(
      true,
    );
    expect(devSignInAllowed({ NODE_ENV: "production", CITED_DEV_SIGN_IN: undefined, auth: embedded })).toBe(
      false,
    );
    expect(devSignInAllowed({ NODE_ENV: "production", CITED_DEV_SIGN_IN: "allow", auth: embedded })).toBe(
      true,
    );
  });

  it("runs embedded, with the development sign-in's secret, when Supabase is not configured", () => {
    expect(parseServerEnvironment(valid).auth).toEqual({
      kind: "embedded",
      sessionSecret: valid.CITED_SESSION_SECRET,
    });
    // Blank Supabase settings (a test switching them off) are no configuration at all.
    expect(
      parseServerEnvironment({ ...valid, SUPABASE_URL: "", SUPABASE_PUBLISHABLE_KEY: "" }).auth.kind,
    ).toBe("embedded");
    expect(() => parseServerEnvironment({ ...valid, CITED_SESSION_SECRET: undefined })).toThrow(
      /CITED_SESSION_SECRET is required.*SUPABASE_URL/,
    );
  });
});

describe("Supabase mode", () => {
  const supabase = {
    ...valid,
    CITED_SESSION_SECRET: undefined,
    SUPABASE_URL: "https://abcdefgh.supabase.co/",
    SUPABASE_PUBLISHABLE_KEY: "sb_publishable_0123456789abcdef",
  };

  it("switches on with the project's URL and publishable key, without a session secret", () => {
    const environment = parseServerEnvironment(supabase);
    expect(environment.auth).toEqual({
      kind: "supabase",
      url: "https://abcdefgh.supabase.co",
      publishableKey: "sb_publishable_0123456789abcdef",
      secureCookies: false,
      jwtSecret: undefined,
    });
    expect(parseServerEnvironment({ ...supabase, SUPABASE_JWT_SECRET: "s".repeat(40) }).auth).toMatchObject({
      jwtSecret: "s".repeat(40),
    });
  });

  it("switches the development sign-in off, even where it was allowed", () => {
    const environment = parseServerEnvironment({
      ...supabase,
      NODE_ENV: "development",
      CITED_DEV_SIGN_IN: "allow",
    });
    expect(devSignInAllowed(environment)).toBe(false);
  });

  it("refuses half a configuration instead of falling back to the development sign-in", () => {
    expect(() => parseServerEnvironment({ ...supabase, SUPABASE_PUBLISHABLE_KEY: undefined })).toThrow(
      /SUPABASE_PUBLISHABLE_KEY is missing: Supabase mode needs both/,
    );
    expect(() => parseServerEnvironment({ ...valid, SUPABASE_PUBLISHABLE_KEY: "sb_publishable_x" })).toThrow(
      /SUPABASE_URL is missing/,
    );
    expect(() => parseServerEnvironment({ ...valid, SUPABASE_JWT_SECRET: "s".repeat(40) })).toThrow(
      /SUPABASE_URL is missing/,
    );
    expect(() => parseServerEnvironment({ ...supabase, SUPABASE_URL: "abcdefgh.supabase.co" })).toThrow(
      EnvironmentError,
    );
  });

  it("refuses a secret or service-role key, which the browser would receive", () => {
    expect(() =>
      parseServerEnvironment({ ...supabase, SUPABASE_PUBLISHABLE_KEY: "sb_secret_0123456789" }),
    ).toThrow(/SUPABASE_PUBLISHABLE_KEY is a secret key/);
    const legacyKey = (role: string) =>
      [
        Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url"),
        Buffer.from(JSON.stringify({ iss: "supabase", role })).toString("base64url"),
        "signature",
      ].join(".");
    expect(() =>
      parseServerEnvironment({ ...supabase, SUPABASE_PUBLISHABLE_KEY: legacyKey("service_role") }),
    ).toThrow(/service_role key/);
    expect(
      parseServerEnvironment({ ...supabase, SUPABASE_PUBLISHABLE_KEY: legacyKey("anon") }).auth.kind,
    ).toBe("supabase");
  });

  it("accepts the app's origin, and in development its loopback twin too", () => {
    const development = { NODE_ENV: "development", CITED_APP_ORIGIN: "http://localhost:4000" } as const;
    expect(allowedOrigins(development)).toEqual(["http://localhost:4000", "http://127.0.0.1:4000"]);
    expect(allowedOrigins({ ...development, NODE_ENV: "production" })).toEqual(["http://localhost:4000"]);
    expect(allowedOrigins({ NODE_ENV: "development", CITED_APP_ORIGIN: "https://app.example.com/" })).toEqual(
      ["https://app.example.com"],
    );
  });

  it("tells the browser the project's URL and publishable key, never its JWT secret", () => {
    const { auth } = parseServerEnvironment({ ...supabase, SUPABASE_JWT_SECRET: "s".repeat(40) });
    const project = browserSupabaseProject(auth);
    expect(project).toEqual({
      url: "https://abcdefgh.supabase.co",
      publishableKey: "sb_publishable_0123456789abcdef",
      secureCookies: false,
    });
    expect(JSON.stringify(project)).not.toContain("s".repeat(40));
    expect(browserSupabaseProject(parseServerEnvironment(valid).auth)).toBeNull();
  });

  it("marks the session cookies Secure when the app is served over https", () => {
    const served = (origin: string) => ({ ...supabase, CITED_APP_ORIGIN: origin });
    expect(parseServerEnvironment(served("https://app.example.com")).auth).toMatchObject({
      secureCookies: true,
    });
    expect(parseServerEnvironment(served("http://localhost:3000")).auth).toMatchObject({
      secureCookies: false,
    });
    expect(supabaseProjectSettings(served("https://app.example.com"))).toMatchObject({ secureCookies: true });
    expect(supabaseProjectSettings(served("http://127.0.0.1:3100"))).toMatchObject({ secureCookies: false });
    // The proxy must not fail on a setting the pages explain: a malformed origin is not https.
    expect(supabaseProjectSettings(served("not a url"))).toMatchObject({ secureCookies: false });
  });

  it("gives the proxy the project alone, and nothing while it is incomplete or invalid", () => {
    expect(supabaseProjectSettings(supabase)).toEqual({
      url: "https://abcdefgh.supabase.co",
      publishableKey: "sb_publishable_0123456789abcdef",
      secureCookies: false,
    });
    expect(supabaseProjectSettings({ ...supabase, CITED_API_KEY: undefined })).not.toBeNull();
    expect(supabaseProjectSettings({ ...supabase, SUPABASE_PUBLISHABLE_KEY: "" })).toBeNull();
    expect(
      supabaseProjectSettings({ ...supabase, SUPABASE_PUBLISHABLE_KEY: "sb_secret_0123456789" }),
    ).toBeNull();
    expect(supabaseProjectSettings(valid)).toBeNull();
  });
});
