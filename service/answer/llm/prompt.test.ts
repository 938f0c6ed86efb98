import { describe, expect, it } from "vitest";
import { buildPrompt, noAnswerToken } from "./prompt.ts";
import { consoles, engineRequest, leaving, rootShell } from "./testing/passages.ts";

describe("the prompt the model reads", () => {
  it("numbers the passages and their sentences so a marker names a sentence span", () => {
    const prompt = buildPrompt(engineRequest("How do I switch to virtual console 3?"), { maxPassages: 6 });
    const user = prompt.messages[1]!.content;
    expect(prompt.passages.map((item) => item.passage.id)).toEqual([consoles.id, rootShell.id, leaving.id]);
    expect(user).toContain("Passage 1 (Debian Reference › 1.1.6 Virtual consoles):");
    expect(user).toContain(
      "[1.3] You can alternatively change to another virtual console, e.g. to the console 3, from the commandline.",
    );
    expect(user).toContain("[1.4] # chvt 3");
    expect(user).toContain('[2.3] Type "su -l" from any user shell prompt.');
    expect(user).toContain('[3.2] Alternately, you can type "exit".');
    expect(user.trimEnd().endsWith("Question: How do I switch to virtual console 3?")).toBe(true);
  });

  it("shows only the best passages", () => {
    const prompt = buildPrompt(engineRequest("How do I leave the shell?"), { maxPassages: 2 });
    expect(prompt.passages.map((item) => item.number)).toEqual([1, 2]);
    expect(prompt.messages[1]!.content).not.toContain("[3.1]");
  });

  it("tells the model to cite every sentence, answer only from the passages, or say NO_ANSWER", () => {
    const system = buildPrompt(engineRequest("How do I leave the shell?"), { maxPassages: 6 }).messages[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toMatch(/only the numbered passages/);
    expect(system.content).toMatch(/Every sentence ends with the marker/);
    expect(system.content).toContain(`reply exactly ${noAnswerToken}`);
  });

  it("asks for as many sentences as the detail level wants, in the wording the technicality wants", () => {
    const system = (detail: "SUCCINCT" | "DETAILED", technicality: "SIMPLE" | "TECHNICAL") =>
      buildPrompt(engineRequest("How do I leave the shell?", { detail, technicality }), { maxPassages: 6 })
        .messages[0]!.content;
    expect(system("SUCCINCT", "SIMPLE")).toContain(
      "Write 1 to 2 sentences; fewer when the passages hold less",
    );
    expect(system("SUCCINCT", "SIMPLE")).toContain("plain, short sentences");
    expect(system("DETAILED", "TECHNICAL")).toContain("Write 5 to 8 sentences");
    expect(system("DETAILED", "TECHNICAL")).toContain("exact terms, commands, options, paths and numbers");
  });

  it("carries the previous turn, without its answer markers, so a follow-up can be understood", () => {
    const request = engineRequest("And how do I leave it again?", {
      history: [
        {
          id: "msg_1",
          question: "How do I get a root shell?",
          searchQuery: "root shell",
          answer: 'Type "su -l" from any user shell prompt.{{GIST:1}}{{CIT:ref_abc}}',
          refusal: false,
          passageIds: [rootShell.id],
        },
      ],
    });
    const user = buildPrompt(request, { maxPassages: 6 }).messages[1]!.content;
    expect(user).toContain("User: How do I get a root shell?");
    expect(user).toContain('Assistant: Type "su -l" from any user shell prompt.');
    expect(user).not.toContain("{{");
    expect(user.indexOf("User: How do I get a root shell?")).toBeLessThan(user.indexOf("Question:"));
  });
});
