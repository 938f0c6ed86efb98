/** The chat prompt of the LLM engine: rules, the last turns, the question, and the top passages with numbered sentences. */

import { segmentAnswer } from "../../../sdk/core/index.ts";
import type { DetailLevel, TechnicalityLevel } from "../../../sdk/core/wire.ts";
import type { PassageWithSource } from "../../domain.ts";
import type { Turn } from "../../store/sessions.ts";
import type { EngineRequest } from "../engine.ts";

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/** A passage as the prompt numbered it: `[number.sentence]` cites one of its `sentenceCount` sentences. */
export interface PromptPassage {
  number: number;
  passage: PassageWithSource;
  sentenceCount: number;
}

export interface Prompt {
  messages: ChatMessage[];
  passages: PromptPassage[];
}

export interface PromptOptions {
  maxPassages: number;
  /** Earlier turns shown for a follow-up question. */
  historyTurns?: number;
}

/** What the model answers when the passages do not answer the question. */
export const noAnswerToken = "NO_ANSWER";

export const claimCounts: Record<DetailLevel, { min: number; max: number }> = {
  SUCCINCT: { min: 1, max: 2 },
  BALANCED: { min: 3, max: 4 },
  DETAILED: { min: 5, max: 8 },
};

const technicalityRules: Record<TechnicalityLevel, string> = {
  SIMPLE: "Use plain, short sentences a newcomer understands; explain any term you keep.",
  BALANCED: "Keep the commands and exact names the passages use, and explain them briefly.",
  TECHNICAL: "Keep the exact terms, commands, options, paths and numbers as the passages give them.",
};

// Bounds that keep a prompt small enough for any chat model's context.
const maxSentencesPerPassage = 60;
const maxSentenceCharacters = 600;
const maxAnswerCharacters = 800;

function systemPrompt(request: EngineRequest): string {
  const { min, max } = claimCounts[request.detail];
  return [
    "You answer questions using only the numbered passages the user gives you.",
    "Rules:",
    "- Every sentence states one fact taken from the passages, in words close to theirs.",
    "- Every sentence ends with the marker of the passage sentences it comes from, before the final period:",
    "  [2.3] is passage 2 sentence 3, [2.3-4] is its sentences 3 to 4, [2.3][4.1] cites two places.",
    "- Cite only sentences that say what your sentence says. Add nothing the passages do not say.",
    `- Write ${min === max ? min : `${min} to ${max}`} sentences; fewer when the passages hold less. Never pad.`,
    `- ${technicalityRules[request.technicality]}`,
    "- Plain text only: no Markdown, no lists, no headings, no preamble, no mention of the passages.",
    `- If the passages do not answer the question, reply exactly ${noAnswerToken} and nothing else.`,
  ].join("\n");
}

function oneLine(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

/** An earlier answer without its `{{GIST:n}}`/`{{CIT:id}}` markers. */
function answerText(answer: string): string {
  return segmentAnswer(answer, { final: true })
    .map((segment) => (segment.type === "text" ? segment.text : ""))
    .join("");
}

function historySection(history: readonly Turn[]): string[] {
  if (history.length === 0) return [];
  const lines = ["Earlier in this conversation (for context only; cite only the passages):"];
  for (const turn of history) {
    lines.push(`User: ${oneLine(turn.question, maxAnswerCharacters)}`);
    lines.push(`Assistant: ${oneLine(answerText(turn.answer), maxAnswerCharacters)}`);
  }
  return [...lines, ""];
}

function passageSection(passages: readonly PromptPassage[]): string[] {
  return passages.flatMap(({ number, passage, sentenceCount }) => {
    const source = [passage.title || passage.fileName, passage.heading].filter(Boolean).join(" › ");
    const sentences = passage.sentences
      .slice(0, sentenceCount)
      .map((sentence, index) => `[${number}.${index + 1}] ${oneLine(sentence.text, maxSentenceCharacters)}`);
    return [`Passage ${number} (${oneLine(source, 200)}):`, ...sentences, ""];
  });
}

/** The prompt for `request`, and the passages its markers may name. */
export function buildPrompt(request: EngineRequest, options: PromptOptions): Prompt {
  const passages = [...request.ranked]
    .sort((a, b) => b.score - a.score)
    .slice(0, options.maxPassages)
    .filter(({ passage }) => passage.sentences.length > 0)
    .map(({ passage }, index) => ({
      number: index + 1,
      passage,
      sentenceCount: Math.min(passage.sentences.length, maxSentencesPerPassage),
    }));
  const history = request.history.slice(-(options.historyTurns ?? 2));
  const user = [
    ...historySection(history),
    "Passages:",
    "",
    ...passageSection(passages),
    `Question: ${oneLine(request.message, 5000)}`,
  ].join("\n");
  return {
    messages: [
      { role: "system", content: systemPrompt(request) },
      { role: "user", content: user },
    ],
    passages,
  };
}
