/**
 * What `npm run dev` reuses and what it creates, decided from what the running service lists: pure
 * functions, so the decisions are tested without a service.
 */
import { randomBytes } from "node:crypto";
import type { Assistant, DocumentRecord, KeyRecord } from "../../sdk/admin/schemas.ts";

export const demoAssistantName = "Cited demo";

/** A file of the demo corpus and the datasource it goes into (the search page filters by datasource). */
export interface SampleFile {
  path: string;
  datasource: string;
}

export const sampleFiles: SampleFile[] = [
  { path: "samples/sources/debian-uploads-and-bugs.pdf", datasource: "manuals" },
  { path: "samples/sources/backups.md", datasource: "notes" },
  { path: "samples/sources/releases.csv", datasource: "notes" },
  { path: "samples/sources/incident-review.vtt", datasource: "notes" },
];

/**
 * The demo assistant named in `.env.local` while the service still has it; else the oldest one with the
 * demo name (`.env.local` was deleted but the service data kept); else null: create one. An assistant
 * with another name is never chosen, so the samples never land in someone's own assistant.
 */
export function chooseAssistant(assistants: Assistant[], rememberedId: string | undefined): Assistant | null {
  const demos = assistants
    .filter((assistant) => assistant.name === demoAssistantName)
    .sort((first, second) => first.created_at.localeCompare(second.created_at));
  return demos.find((assistant) => assistant.id === rememberedId) ?? demos[0] ?? null;
}

/** The record id inside a key: `cka_live_<id without "key_">_<secret>` (service/store/keys.ts). */
export function keyIdOf(key: string): string | null {
  const match = /^cka_live_([A-Za-z0-9]{20})_[A-Za-z0-9_-]{43}$/.exec(key);
  return match ? `key_${match[1]}` : null;
}

/**
 * The id of the key from `.env.local` when it still works for the assistant (its record is listed for it,
 * not revoked, not made to expire, with both scopes the app needs), else null. The admin API never shows a key's secret
 * again, so the record the key names is what can be checked.
 */
export function usableKeyId(key: string | undefined, assistantId: string, keys: KeyRecord[]): string | null {
  const id = key ? keyIdOf(key) : null;
  const record = keys.find((candidate) => candidate.id === id);
  const usable =
    record !== undefined &&
    record.id_assistant === assistantId &&
    record.revoked_at === null &&
    record.expires_at === null &&
    record.scopes.includes("ask") &&
    record.scopes.includes("rag");
  return usable ? record.id : null;
}

/** The app's session-cookie secret: kept once made (a new one would sign every user out), 32 random bytes. */
export function sessionSecret(existing: string | undefined): string {
  return existing && /^[0-9a-f]{64}$/i.test(existing) ? existing : randomBytes(32).toString("hex");
}

export interface SampleState {
  sample: SampleFile;
  fileName: string;
  sha256: string;
  /** The document already holding this very file in its datasource, or null: upload it. */
  document: DocumentRecord | null;
}

/**
 * Pairs each sample with a document of the same name, datasource and content that did not fail. A sample
 * edited since (another checksum) or failed before is uploaded again.
 */
export function matchSamples(
  samples: Array<Omit<SampleState, "document">>,
  documents: DocumentRecord[],
): SampleState[] {
  return samples.map((sample) => ({
    ...sample,
    document:
      documents.find(
        (document) =>
          document.file_name === sample.fileName &&
          document.datasource === sample.sample.datasource &&
          document.sha256 === sample.sha256 &&
          document.status !== "failed",
      ) ?? null,
  }));
}
