import { describe, expect, it } from "vitest";
import type { PassageWithSource, StoredSentence } from "../domain.ts";
import { analyze } from "../index/analyzer.ts";
import type { SentenceOpens } from "../ingest/types.ts";
import type { Turn } from "../store/sessions.ts";
import { answerUnits } from "./answer-units.ts";
import type { RankedPassage } from "./engine.ts";
import { composeAnswer } from "./extractive-engine.ts";
import { analyzeQuestion } from "./question-analysis.ts";

type Line = string | [SentenceOpens, string];

/** A passage from sentences; `[opens, text]` marks what a sentence opens, as a reader records it. */
function passage(id: string, lines: readonly Line[], heading = "Guide"): PassageWithSource {
  let text = "";
  const sentences: StoredSentence[] = lines.map((line) => {
    const [opens, sentence] = typeof line === "string" ? [undefined, line] : line;
    if (text) text += " ";
    const start = text.length;
    text += sentence;
    return { text: sentence, start, end: text.length, ...(opens ? { opens } : {}) };
  });
  return {
    id,
    documentId: `doc_${id}`,
    assistantId: "a",
    datasourceId: "d",
    ordinal: 0,
    kind: "paragraph",
    text,
    heading,
    title: "Guide",
    fileName: "guide.md",
    sentences,
    evidence: { kind: "paragraph" },
    pageStart: null,
    pageEnd: null,
  };
}

/** Every passage's terms count as rare but one in this tiny corpus. */
function idfOver(passages: readonly PassageWithSource[]) {
  const frequency = new Map<string, number>();
  for (const item of passages)
    for (const term of new Set(analyze(item.text))) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  return (term: string) =>
    Math.log(1 + (passages.length - (frequency.get(term) ?? 0) + 0.5) / ((frequency.get(term) ?? 0) + 0.5));
}

function answer(message: string, passages: readonly PassageWithSource[], history: Turn[] = []) {
  const ranked: RankedPassage[] = passages.map((item, index) => ({ passage: item, score: 10 - index }));
  return composeAnswer(ranked, analyzeQuestion(message, history), idfOver(passages), {
    detail: "BALANCED",
    technicality: "BALANCED",
  });
}

const filler = passage("filler", [
  ["paragraph", "The project ships a command line client and a small web dashboard."],
  "Releases appear every spring and every autumn.",
]);

describe("the extractive engine's answer units", () => {
  it("cites the solution with the problem it follows, not the sentence that restates the question", () => {
    const guide = passage("logs", [
      ["paragraph", "Log files sometimes grow until the disk is full."],
      "To cap them, set max_size in the config.",
      ["paragraph", "Rotated files are compressed with gzip."],
    ]);
    const composition = answer("How do I stop log files from filling the disk?", [guide, filler]);
    expect(composition.claims[0]?.text).toBe(
      "Log files sometimes grow until the disk is full. To cap them, set max_size in the config.",
    );
  });

  it("cites a sentence that runs through a code display whole, code included", () => {
    const guide = passage("unpack", [
      ["paragraph", "To install the release somewhere other than the default prefix you can run"],
      ["code", "tar -xzf archive.tgz -C /opt"],
      ["paragraph", "to unpack it there instead."],
      ["paragraph", "The archive holds the binaries and the manual pages."],
    ]);
    const composition = answer("How can I install the release somewhere other than the default prefix?", [
      guide,
      filler,
    ]);
    expect(composition.claims[0]?.text).toBe(
      "To install the release somewhere other than the default prefix you can run tar -xzf archive.tgz -C /opt to unpack it there instead.",
    );
    expect(composition.claims[0]?.span).toMatchObject({ first: 0, last: 2 });
  });

  it("cites a lead-in with the options list it introduces", () => {
    const guide = passage("options", [
      ["paragraph", "The importer accepts these options:"],
      ["code", "--dry-run   report what would change"],
      "--force     overwrite existing records",
      ["paragraph", "Every run writes a log."],
    ]);
    const composition = answer("Which options does the importer accept?", [guide, filler]);
    expect(composition.claims[0]?.text).toBe(
      "The importer accepts these options: --dry-run   report what would change --force     overwrite existing records",
    );
  });

  it("answers a question whose answer is a list with the list's items", () => {
    const guide = passage("order", [
      ["paragraph", "Upgrade the cluster nodes in the following order:"],
      ["item", "• the database nodes,"],
      ["item", "• the queue workers,"],
      ["item", "• the web front ends."],
      ["paragraph", "Each node restarts on its own."],
    ]);
    const composition = answer("In what order should the cluster nodes be upgraded?", [guide, filler]);
    expect(composition.claims[0]?.text).toBe(
      "Upgrade the cluster nodes in the following order: • the database nodes, • the queue workers, • the web front ends.",
    );
    expect(composition.claims).toHaveLength(1);
  });

  it("gives a yes/no question the sentence with the verdict after the one that names the topic", () => {
    const guide = passage("versions", [
      ["paragraph", "Older clients can connect to the server over the legacy protocol."],
      "The server accepts only protocol 3 and later.",
      ["paragraph", "Clients negotiate compression on their own."],
    ]);
    const composition = answer("Can older clients connect over the legacy protocol?", [guide, filler]);
    expect(composition.claims[0]?.text).toContain("The server accepts only protocol 3 and later.");
  });

  it("keeps a follow-up with 'that' on the earlier topic and does not repeat the earlier claim", () => {
    const backup = passage("backup", [
      ["paragraph", "To save a snapshot of the vault, run"],
      ["code", "vault snapshot save backup.snap"],
      ["paragraph", "To bring that snapshot back, run"],
      ["code", "vault snapshot restore backup.snap"],
    ]);
    const unrelated = passage("tokens", [
      [
        "paragraph",
        "How do I bring a revoked token back? A revoked token cannot be brought back; create a new one.",
      ],
    ]);
    const first = answer("How do I save a snapshot of the vault?", [backup, unrelated]);
    expect(first.claims[0]?.text).toBe(
      "To save a snapshot of the vault, run vault snapshot save backup.snap",
    );
    const history: Turn[] = [
      {
        id: "msg_1",
        question: "How do I save a snapshot of the vault?",
        searchQuery: "How do I save a snapshot of the vault?",
        answer: first.claims.map((claim) => claim.text).join(" "),
        refusal: false,
        passageIds: ["backup"],
      },
    ];
    const followUp = answer("And how do I bring that back again?", [backup, unrelated], history);
    expect(followUp.claims[0]?.text).toBe(
      "To bring that snapshot back, run vault snapshot restore backup.snap",
    );
    expect(followUp.claims.map((claim) => claim.text)).not.toContain(first.claims[0]?.text);
  });

  it("adds a further claim only when it answers what the first leaves open", () => {
    const ports = passage("ports", [
      ["paragraph", "The web interface listens on port 8080."],
      ["paragraph", "The metrics endpoint listens on port 9100."],
      ["paragraph", "Let's agree on the follow-up actions for the port review."],
    ]);
    const composition = answer(
      "Which port does the web interface use, and which does the metrics endpoint use?",
      [ports, filler],
    );
    const texts = composition.claims.map((claim) => claim.text);
    expect(texts).toHaveLength(2);
    expect(texts).toEqual(
      expect.arrayContaining([
        "The web interface listens on port 8080.",
        "The metrics endpoint listens on port 9100.",
      ]),
    );
  });
});

describe("answerUnits", () => {
  it("never cites a lead-in without the code display it introduces", () => {
    const guide = passage("lead", [
      ["paragraph", "Unpack the archive as follows:"],
      ["code", "tar -xzf archive.tgz"],
    ]);
    expect(answerUnits(guide.sentences)).toEqual([
      { lead: 0, first: 0, last: 1, kind: "introduced" },
      { lead: 1, first: 1, last: 1, kind: "sentence" },
    ]);
  });

  it("reads sentences stored before layout was recorded by their text", () => {
    const guide = passage("legacy", [
      "You can stop the service from the command line:",
      "$ service stop",
      "Done.",
    ]);
    expect(answerUnits(guide.sentences)[0]).toEqual({ lead: 0, first: 0, last: 1, kind: "introduced" });
  });
});
