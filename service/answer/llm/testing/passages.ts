/** Passages from the Debian Reference (chapter 1) and engine requests over them, for the LLM engine's tests. */
import type { DetailLevel, TechnicalityLevel } from "../../../../sdk/core/wire.ts";
import type { PassageWithSource } from "../../../domain.ts";
import { analyze, analyzeQuery } from "../../../index/analyzer.ts";
import type { Turn } from "../../../store/sessions.ts";
import { expectedAnswer } from "../../answer-type.ts";
import type { EngineRequest, RankedPassage } from "../../engine.ts";

function passage(id: string, heading: string, sentences: string[]): PassageWithSource {
  let offset = 0;
  const stored = sentences.map((text) => {
    const sentence = { text, start: offset, end: offset + text.length };
    offset += text.length + 1;
    return sentence;
  });
  return {
    id,
    documentId: "doc_debianreference",
    assistantId: "asst_test",
    datasourceId: "ds_test",
    ordinal: 0,
    kind: "paragraph",
    text: sentences.join(" "),
    heading,
    title: "Debian Reference",
    sentences: stored,
    evidence: { kind: "paragraph" },
    pageStart: null,
    pageEnd: null,
    fileName: "debian-reference.md",
  };
}

export const consoles = passage("psg_consoles", "1.1.6 Virtual consoles", [
  "In the default Debian system, there are six switchable VT100-like character consoles available to start the command shell directly on the Linux host.",
  "Unless you are in a GUI environment, you can switch between the virtual consoles by pressing the Left-Alt-key and one of the F1 — F6 keys simultaneously.",
  "You can alternatively change to another virtual console, e.g. to the console 3, from the commandline.",
  "# chvt 3",
]);

export const rootShell = passage("psg_rootshell", "1.1.4 The root shell prompt", [
  "Here are a few basic methods to gain the root shell prompt by using the root password.",
  "Type root at the character based login prompt.",
  'Type "su -l" from any user shell prompt.',
  "This does not preserve the environment of the current user.",
]);

export const leaving = passage("psg_leaving", "1.1.7 How to leave the command prompt", [
  "You type Ctrl-D, i.e., the left-Ctrl-key and the d-key pressed together, at the command prompt to close the shell activity.",
  'Alternately, you can type "exit".',
]);

const testPassages = [consoles, rootShell, leaving];

/** BM25's idf over the test passages, as the service computes it over an index. */
export function testIdf(passages: readonly PassageWithSource[] = testPassages): (term: string) => number {
  const termSets = passages.map((item) => new Set(analyze(`${item.heading} ${item.text}`)));
  return (term) => {
    const frequency = termSets.filter((terms) => terms.has(term)).length;
    return Math.log(1 + (passages.length - frequency + 0.5) / (frequency + 0.5));
  };
}

export function engineRequest(
  message: string,
  options: {
    ranked?: readonly PassageWithSource[];
    history?: Turn[];
    detail?: DetailLevel;
    technicality?: TechnicalityLevel;
    signal?: AbortSignal;
  } = {},
): EngineRequest {
  const passages = options.ranked ?? testPassages;
  const ranked: RankedPassage[] = passages.map((item, index) => ({ passage: item, score: 10 - index }));
  return {
    message,
    history: options.history ?? [],
    ranked,
    terms: analyzeQuery(message),
    vectors: null,
    rerankScores: null,
    idf: testIdf(),
    detail: options.detail ?? "BALANCED",
    technicality: options.technicality ?? "BALANCED",
    expected: expectedAnswer(message),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}
