import { describe, expect, it } from "vitest";
import { supportOf, verifyClaim } from "./claim-verifier.ts";
import { buildPrompt } from "./prompt.ts";
import { consoles, engineRequest, rootShell, testIdf } from "./testing/passages.ts";

const idf = testIdf();
const passages = buildPrompt(engineRequest("How do I switch consoles?"), { maxPassages: 6 }).passages;
const chvtEvidence = `${consoles.heading}\n${consoles.sentences[2]!.text}\n${consoles.sentences[3]!.text}`;

describe("checking a model sentence against the text it cites", () => {
  it("counts a sentence in the cited words as fully supported, 'command line' matching 'commandline'", () => {
    expect(
      supportOf("Change to another virtual console from the command line with chvt 3.", chvtEvidence, idf),
    ).toBe(1);
  });

  it("gives no support to a sentence whose number the cited text does not hold", () => {
    expect(
      supportOf("Change to virtual console 4 from the commandline with chvt 4.", chvtEvidence, idf),
    ).toBe(0);
  });

  it("judges an added clause on its own, so it cannot hide behind a supported one", () => {
    const added = "Change to another virtual console from the commandline, and it also wipes your disk.";
    expect(supportOf(added, chvtEvidence, idf)).toBeLessThan(0.3);
  });

  it("cites the span that supports the sentence best when it names several passages", () => {
    const verdict = verifyClaim(
      {
        text: 'Type "su -l" from any user shell prompt.',
        citations: [
          { passage: 1, first: 1, last: 1 },
          { passage: 2, first: 3, last: 3 },
        ],
        malformed: 0,
      },
      passages,
      idf,
    );
    expect(verdict).toMatchObject({
      kind: "supported",
      claim: { span: { passage: rootShell, first: 2, last: 2 } },
    });
  });

  it("says why a sentence was dropped", () => {
    const draft = (text: string, passage: number, first: number, last = first) => ({
      text,
      citations: [{ passage, first, last }],
      malformed: 0,
    });
    expect(verifyClaim(draft("Type root.", 2, 5), passages, idf)).toMatchObject({
      reason: "invalid_citation",
    });
    expect(verifyClaim(draft("Type root.", 2, 3, 2), passages, idf)).toMatchObject({
      reason: "invalid_citation",
    });
    expect(verifyClaim(draft("Type root.", 4, 1), passages, idf)).toMatchObject({
      reason: "invalid_citation",
    });
    expect(verifyClaim({ ...draft("Type root.", 2, 2), malformed: 1 }, passages, idf)).toMatchObject({
      reason: "invalid_citation",
    });
    expect(verifyClaim({ text: "Type root.", citations: [], malformed: 0 }, passages, idf)).toMatchObject({
      reason: "uncited",
    });
    expect(
      verifyClaim(draft("The passages do not say how to become root.", 2, 1), passages, idf),
    ).toMatchObject({
      reason: "meta",
    });
    expect(verifyClaim(draft("Root can format any disk quickly.", 2, 2), passages, idf)).toMatchObject({
      reason: "unsupported",
    });
  });
});
