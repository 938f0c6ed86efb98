/** The optional LLM engine: an OpenAI-compatible model writes cited sentences; each is verified before it becomes a claim. */
import type { Logger } from "../../logger.ts";
import type { AnswerEngine } from "../engine.ts";
import { defaultEngineSettings } from "../extractive-engine.ts";
import { questionCoverage } from "../question-coverage.ts";
import { createChatStream } from "./chat-stream.ts";
import { type DropReason, defaultVerifierSettings, verifyClaim } from "./claim-verifier.ts";
import { buildPrompt, claimCounts, noAnswerToken } from "./prompt.ts";
import { createSentenceSplitter, type DraftSentence } from "./sentence-splitter.ts";

export interface LlmEngineOptions {
  /** Base URL of the OpenAI-compatible API, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Replaces the global fetch (tests). */
  fetch?: typeof fetch;
  /** Longest silence of the model, before its first token or between two. Default 20 s. */
  timeoutMs?: number;
  /** Passages shown to the model, best first. Default 6. */
  maxPassages?: number;
  /** Retries before the first byte. Default 1: a fallback engine answers anyway. */
  maxRetries?: number;
  /** Least support a sentence needs to be kept (0–1). Default 0.6. */
  minSupport?: number;
  /** Receives one line per answer: sentences read, claims kept, and why others were dropped. */
  logger?: Logger;
}

/**
 * An engine that asks a chat model for an answer from the numbered passages and yields each sentence
 * as a claim as soon as it is complete and verified. Throws `LlmError` on timeouts, HTTP errors and
 * unreadable streams (wrap it in `createFallbackEngine`); ends quietly when `request.signal` aborts.
 *
 * @example
 * const engine = createFallbackEngine(
 *   createLlmEngine({ baseUrl: "http://127.0.0.1:8000/v1", model: "qwen2.5-7b-instruct", apiKey: "none" }),
 *   createExtractiveEngine(),
 *   logger,
 * );
 */
export function createLlmEngine(options: LlmEngineOptions): AnswerEngine {
  const chat = createChatStream({
    baseUrl: options.baseUrl,
    model: options.model,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? 20_000,
    maxRetries: options.maxRetries ?? 1,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const settings = { ...defaultVerifierSettings, minSupport: options.minSupport ?? 0.6 };
  const maxPassages = options.maxPassages ?? 6;

  return {
    name: "llm",
    async *compose(request) {
      const prompt = buildPrompt(request, { maxPassages });
      // Nothing to cite: a refusal, without asking the model.
      if (prompt.passages.length === 0) return;
      const limit = claimCounts[request.detail].max;
      const splitter = createSentenceSplitter();
      const seen = new Set<string>();
      const dropped: Partial<Record<DropReason, number>> = {};
      let sentences = 0;
      let noAnswer = false;

      /** The claim a sentence becomes, or null (counted as dropped). */
      const judge = (draft: DraftSentence) => {
        sentences += 1;
        if (draft.text.startsWith(noAnswerToken)) {
          noAnswer = true;
          return null;
        }
        const verdict = verifyClaim(draft, prompt.passages, request.idf, settings);
        if (verdict.kind === "dropped") {
          dropped[verdict.reason] = (dropped[verdict.reason] ?? 0) + 1;
          return null;
        }
        if (seen.has(verdict.claim.text)) return null;
        seen.add(verdict.claim.text);
        const { text, span } = verdict.claim;
        const relevance = questionCoverage(
          request.terms,
          request.idf,
          text,
          span.passage.heading,
          defaultEngineSettings.contextCredit,
        );
        return { ...verdict.claim, relevance: Math.round(relevance * 1000) / 1000 };
      };

      try {
        for await (const piece of chat.streamText(prompt.messages, request.signal)) {
          for (const draft of splitter.push(piece)) {
            const claim = judge(draft);
            if (claim) yield claim;
            // Stopping here also cancels the model's request.
            if (noAnswer || seen.size >= limit) return;
          }
        }
        for (const draft of splitter.end()) {
          const claim = judge(draft);
          if (claim) yield claim;
          if (noAnswer || seen.size >= limit) return;
        }
      } finally {
        options.logger?.info("llm answer", {
          model: options.model,
          passages: prompt.passages.length,
          sentences,
          claims: seen.size,
          no_answer: noAnswer,
          dropped,
        });
      }
    },
  };
}
