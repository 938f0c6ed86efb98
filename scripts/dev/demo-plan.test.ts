import { describe, expect, it } from "vitest";
import type { Assistant, DocumentRecord, KeyRecord } from "../../sdk/admin/schemas.ts";
import {
  chooseAssistant,
  demoAssistantName,
  keyIdOf,
  matchSamples,
  sessionSecret,
  usableKeyId,
} from "./demo-plan.ts";

const assistant = (id: string, name: string, created_at: string): Assistant => ({ id, name, created_at });

describe("which assistant npm run dev uses", () => {
  const older = assistant("asst_older0000000000000", demoAssistantName, "2026-01-01T00:00:00.000Z");
  const newer = assistant("asst_newer0000000000000", demoAssistantName, "2026-02-01T00:00:00.000Z");
  const support = assistant("asst_support00000000000", "Support", "2026-03-01T00:00:00.000Z");

  it("reuses the demo assistant .env.local names while the service still has it", () => {
    expect(chooseAssistant([older, newer, support], newer.id)).toBe(newer);
  });

  it("never picks an assistant of another name, even one .env.local names", () => {
    expect(chooseAssistant([older, support], support.id)).toBe(older);
    expect(chooseAssistant([support], support.id)).toBeNull();
  });

  it("falls back to the oldest demo assistant when .env.local names none or one the service lost", () => {
    expect(chooseAssistant([newer, support, older], undefined)).toBe(older);
    expect(chooseAssistant([newer, older], "asst_gone")).toBe(older);
  });

  it("creates one (null) when the service has no demo assistant, e.g. after its data was wiped", () => {
    expect(chooseAssistant([support], "asst_gone")).toBeNull();
    expect(chooseAssistant([], undefined)).toBeNull();
  });
});

describe("whether the key in .env.local is kept", () => {
  const assistantId = "asst_demo000000000000000";
  const key = `cka_live_${"A".repeat(20)}_${"s".repeat(43)}`;
  const record = (overrides: Partial<KeyRecord> = {}): KeyRecord => ({
    id: `key_${"A".repeat(20)}`,
    id_assistant: assistantId,
    name: "npm run dev",
    scopes: ["ask", "rag"],
    prefix: key.slice(0, 15),
    created_at: "2026-01-01T00:00:00.000Z",
    revoked_at: null,
    last_used_at: null,
    expires_at: null,
    ...overrides,
  });

  it("finds the record id inside a well-formed key and nothing in anything else", () => {
    expect(keyIdOf(key)).toBe(`key_${"A".repeat(20)}`);
    expect(keyIdOf("cka_live_short_secret")).toBeNull();
  });

  it("keeps a listed, active key with both scopes", () => {
    expect(usableKeyId(key, assistantId, [record()])).toBe(`key_${"A".repeat(20)}`);
  });

  it("replaces a key that is revoked, expires, lacks a scope, belongs elsewhere, is unknown or missing", () => {
    expect(usableKeyId(key, assistantId, [record({ revoked_at: "2026-01-02T00:00:00.000Z" })])).toBeNull();
    expect(usableKeyId(key, assistantId, [record({ expires_at: "2099-01-02T00:00:00.000Z" })])).toBeNull();
    expect(usableKeyId(key, assistantId, [record({ scopes: ["ask"] })])).toBeNull();
    expect(usableKeyId(key, assistantId, [record({ id_assistant: "asst_other00000000000000" })])).toBeNull();
    expect(usableKeyId(key, assistantId, [])).toBeNull();
    expect(usableKeyId(undefined, assistantId, [record()])).toBeNull();
  });
});

describe("the session secret", () => {
  it("is kept once made, so restarting does not sign everyone out", () => {
    const existing = "ab".repeat(32);
    expect(sessionSecret(existing)).toBe(existing);
  });

  it("is made anew, 32 random bytes in hex, when missing or malformed", () => {
    expect(sessionSecret(undefined)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionSecret("too-short")).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionSecret(undefined)).not.toBe(sessionSecret(undefined));
  });
});

describe("which samples are uploaded", () => {
  const sample = {
    sample: { path: "samples/sources/notes.md", datasource: "notes" },
    fileName: "notes.md",
    sha256: "aa",
  };
  const document = (overrides: Partial<DocumentRecord> = {}): DocumentRecord => ({
    id: "doc_00000000000000000000",
    file_name: "notes.md",
    id_datasource: "ds_00000000000000000000",
    datasource: "notes",
    status: "ready",
    bytes: 10,
    sha256: "aa",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...overrides,
  });

  it("reuses a document with the same name, datasource and content, even one still being read", () => {
    const reading = document({ status: "processing" });
    expect(matchSamples([sample], [reading])[0]?.document).toBe(reading);
  });

  it("uploads a sample that is missing, was edited, sits in another datasource or failed before", () => {
    for (const documents of [
      [],
      [document({ sha256: "bb" })],
      [document({ datasource: "manuals" })],
      [document({ status: "failed" })],
    ]) {
      expect(matchSamples([sample], documents)[0]?.document).toBeNull();
    }
  });
});
