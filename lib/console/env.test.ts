import { describe, expect, it } from "vitest";
import { EnvironmentError } from "../environment-error.ts";
import { parseConsoleSettings } from "./env.ts";
import { isOperator } from "./operator.ts";

const admin = { CITED_ADMIN_URL: "http://127.0.0.1:8787/", CITED_ADMIN_TOKEN: "a".repeat(32) };

describe("the console's settings", () => {
  it("mean no console without the admin URL and token", () => {
    expect(parseConsoleSettings({ NODE_ENV: "production" })).toBeNull();
    expect(parseConsoleSettings({ CITED_ADMIN_URL: "", CITED_ADMIN_TOKEN: "" })).toBeNull();
  });

  it("refuse one of the two without the other, and a malformed URL", () => {
    expect(() => parseConsoleSettings({ CITED_ADMIN_URL: admin.CITED_ADMIN_URL })).toThrow(EnvironmentError);
    expect(() => parseConsoleSettings({ CITED_ADMIN_TOKEN: admin.CITED_ADMIN_TOKEN })).toThrow(
      EnvironmentError,
    );
    expect(() => parseConsoleSettings({ ...admin, CITED_ADMIN_URL: "localhost" })).toThrow(/CITED_ADMIN_URL/);
  });

  it("let in the listed operators only, in production and in development", () => {
    for (const NODE_ENV of ["production", "development"]) {
      const settings = parseConsoleSettings({ ...admin, NODE_ENV, CITED_OPERATORS: " olivia, omar ,," });
      expect(settings?.adminUrl).toBe("http://127.0.0.1:8787");
      expect(settings?.operators).toEqual({ kind: "listed", ids: ["olivia", "omar"] });
      expect(isOperator("omar", settings!.operators)).toBe(true);
      expect(isOperator("alice", settings!.operators)).toBe(false);
    }
  });

  it("let every signed-in user in during development without a list, and nobody in production", () => {
    const development = parseConsoleSettings({ ...admin, NODE_ENV: "development" });
    expect(development?.operators).toEqual({ kind: "everyone-in-development" });
    expect(isOperator("alice", development!.operators)).toBe(true);
    const production = parseConsoleSettings({ ...admin, NODE_ENV: "production", CITED_OPERATORS: "" });
    expect(isOperator("alice", production!.operators)).toBe(false);
  });

  it("let nobody in without a list when NODE_ENV is not set, as a production host may run", () => {
    const unset = parseConsoleSettings({ ...admin });
    expect(unset?.operators).toEqual({ kind: "listed", ids: [] });
    expect(isOperator("alice", unset!.operators)).toBe(false);
  });

  it("match a listed Supabase user id whatever its letters' case, and a user name exactly", () => {
    const settings = parseConsoleSettings({
      ...admin,
      NODE_ENV: "production",
      CITED_OPERATORS: "0B6E4A2C-9F1D-4E7A-8C3B-5D2F1A0E9C84, Olivia",
    });
    expect(isOperator("0b6e4a2c-9f1d-4e7a-8c3b-5d2f1a0e9c84", settings!.operators)).toBe(true);
    expect(isOperator("Olivia", settings!.operators)).toBe(true);
    expect(isOperator("olivia", settings!.operators)).toBe(false);
  });
});
