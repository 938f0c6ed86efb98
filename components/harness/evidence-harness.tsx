"use client";
/**
 * The components under test, fed from `window.__citedHarness` (set by the Playwright test before
 * the page loads): real answers and PDF slices recorded from the service, one set per account.
 */
import { useState, useSyncExternalStore } from "react";
import type { AnswerState } from "@/sdk/core/index.ts";
import {
  CitedAnswer,
  type LoadImage,
  type LoadPdf,
  type OpenedEvidence,
  ReferenceEvidence,
} from "@/sdk/react/index.ts";

export interface HarnessAccount {
  authScope: string;
  answers: Array<{ messageId: string; answer: AnswerState }>;
  /** Base64 PDF slices by reference id, with their first page. */
  slices: Record<string, { base64: string; sliceStart: number; documentPageCount: number }>;
  /** Base64 uploaded images with their content type, by reference id. */
  images?: Record<string, { base64: string; type: string }>;
}

declare global {
  interface Window {
    __citedHarness?: { accounts: HarnessAccount[] };
    /** Every loadPdf call, for the test to read: which account asked for which reference. */
    __citedHarnessLoads?: Array<{ authScope: string; referenceId: string }>;
  }
}

const subscribe = () => () => {};

function bytesOf(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

function loaderFor(account: HarnessAccount): LoadPdf {
  return async (_messageId, referenceId) => {
    window.__citedHarnessLoads = [
      ...(window.__citedHarnessLoads ?? []),
      { authScope: account.authScope, referenceId },
    ];
    const slice = account.slices[referenceId];
    if (slice === undefined) throw new Error(`no slice recorded for ${referenceId}`);
    return {
      bytes: bytesOf(slice.base64),
      sliceStart: slice.sliceStart,
      documentPageCount: slice.documentPageCount,
    };
  };
}

function imageLoaderFor(account: HarnessAccount): LoadImage {
  return async (_messageId, referenceId) => {
    const image = account.images?.[referenceId];
    if (image === undefined) throw new Error(`no image recorded for ${referenceId}`);
    return new Blob([new Uint8Array(bytesOf(image.base64))], { type: image.type });
  };
}

export function EvidenceHarness() {
  const accounts = useSyncExternalStore(
    subscribe,
    () => window.__citedHarness?.accounts ?? null,
    () => null,
  );
  const [accountIndex, setAccountIndex] = useState(0);
  const [opened, setOpened] = useState<OpenedEvidence | null>(null);
  if (accounts === null) return <p>No harness data.</p>;
  const account = accounts[accountIndex];
  if (account === undefined) return <p>No such account.</p>;
  const loadPdf = loaderFor(account);
  const loadImage = imageLoaderFor(account);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex gap-2" role="toolbar" aria-label="Account">
        {accounts.map((candidate, index) => (
          <button
            key={candidate.authScope}
            type="button"
            className="rounded border border-stone-400 px-3 py-1"
            aria-pressed={index === accountIndex}
            onClick={() => setAccountIndex(index)}
          >
            {candidate.authScope}
          </button>
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
        <div className="flex flex-col gap-4">
          {account.answers.map(({ messageId, answer }) => (
            <section
              key={messageId}
              aria-label="Answer"
              className="rounded-lg border border-stone-300 bg-white p-4 dark:border-stone-700 dark:bg-stone-900"
            >
              <CitedAnswer
                answer={answer}
                messageId={messageId}
                authScope={account.authScope}
                loadPdf={loadPdf}
                loadImage={loadImage}
                onOpenEvidence={setOpened}
              />
            </section>
          ))}
        </div>
        <div data-testid="evidence-panel" className="min-w-0 [--cited-pdf-height:80vh]">
          {opened ? (
            <ReferenceEvidence
              reference={opened.reference}
              messageId={opened.messageId}
              authScope={account.authScope}
              loadPdf={loadPdf}
              loadImage={loadImage}
              onClose={() => setOpened(null)}
            />
          ) : (
            <p className="text-stone-600 dark:text-stone-400">Choose a citation to see its source.</p>
          )}
        </div>
      </div>
    </div>
  );
}
