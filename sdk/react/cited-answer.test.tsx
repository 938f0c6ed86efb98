// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AnswerState } from "../core/index.ts";
import { CitedAnswer, type CitedAnswerProps } from "./cited-answer.tsx";
import {
  answerCiting,
  catalogueReference,
  finalStateOf,
  hostileLinkReference,
  imageReference,
  linkReference,
  paragraphReference,
  statesOf,
  tableReference,
  transcriptReference,
  videoReference,
} from "./fixtures/answers.ts";
import type { LoadPdf } from "./pdf-slice-cache.ts";

afterEach(cleanup);

const neverLoads: LoadPdf = () => new Promise(() => {});

function renderAnswer(answer: AnswerState, props: Partial<CitedAnswerProps> = {}) {
  const all: CitedAnswerProps = {
    answer,
    messageId: answer.phase === "done" ? answer.messageId : null,
    authScope: "test:tenant:alice",
    loadPdf: neverLoads,
    ...props,
  };
  const view = render(<CitedAnswer {...all} />);
  return {
    ...view,
    update: (next: AnswerState, nextProps: Partial<CitedAnswerProps> = {}) =>
      view.rerender(<CitedAnswer {...all} answer={next} {...nextProps} />),
  };
}

const answerText = () => screen.getByTestId("cited-answer-text");

describe("CitedAnswer: markers", () => {
  it("turns each claim marker into one numbered source button after the claim, and shows no marker", () => {
    renderAnswer(finalStateOf("answer-stream.ndjson"));
    const buttons = screen.getAllByRole("button", { name: /^Source \d/ });
    expect(buttons.map((button) => button.getAttribute("aria-label"))).toEqual([
      "Source 1: R-intro.pdf, page 23",
      "Source 2: R-intro.pdf, page 4",
      "Source 3: 数据手册.pdf, page 1",
    ]);
    expect(answerText().textContent).not.toMatch(/\{\{|\}\}/);
    const firstClaim = answerText().querySelector('[data-claim="1"]');
    expect(firstClaim?.textContent).toBe("R is a free environment for statistical computing and graphics");
    expect(firstClaim?.nextElementSibling).toBe(buttons[0]);
  });

  it("never shows half a marker while it streams, and draws the button once the marker is whole", () => {
    const [snapshot] = statesOf("answer-stream.ndjson").filter((state) => state.text.includes("{{GIST:1}}"));
    const whole = snapshot!.text;
    const cut = whole.indexOf("{{GIST:1}}") + "{{GI".length;
    const view = renderAnswer({ ...snapshot!, text: whole.slice(0, cut) });
    expect(answerText().textContent).toBe("R is a free environment for statistical computing and graphics");
    expect(screen.queryByRole("button", { name: /^Source/ })).toBeNull();

    view.update({ ...snapshot!, text: whole.slice(0, cut + 3) });
    expect(answerText().textContent).not.toContain("{");

    view.update(snapshot!);
    expect(screen.getByRole("button", { name: "Source 1: R-intro.pdf, page 23" })).toBeTruthy();
  });

  it("keeps a half-written marker as text once the answer is complete, as the contract says", () => {
    renderAnswer({ ...finalStateOf("answer-stream.ndjson"), text: "Plain text and {{GIST:" });
    expect(answerText().textContent).toBe("Plain text and {{GIST:");
  });

  it("draws an inline reference that follows no claim as a chip with its title and number", () => {
    const state = finalStateOf("answer-stream.ndjson");
    renderAnswer({ ...state, text: "See {{CIT:ref_7Hq2mX9pLc}} for details." });
    const chip = screen.getByRole("button", { name: "Source 1: R-intro.pdf, page 23" });
    expect(chip.textContent).toBe("R-intro.pdf1");
    expect(answerText().textContent).toBe("See R-intro.pdf1 for details.");
  });
});

describe("CitedAnswer: streaming", () => {
  it("updates in place: text already drawn keeps its DOM nodes as later snapshots arrive", () => {
    const states = statesOf("answer-stream.ndjson").filter((state) => state.text !== "");
    expect(states.length).toBeGreaterThanOrEqual(2);
    const view = renderAnswer(states[0]!);
    const firstClaim = answerText().querySelector('[data-claim="1"]');
    const firstButton = screen.getByRole("button", { name: /^Source 1/ });
    for (const state of states.slice(1)) view.update(state);
    expect(answerText().querySelector('[data-claim="1"]')).toBe(firstClaim);
    expect(screen.getByRole("button", { name: /^Source 1/ })).toBe(firstButton);
    expect(answerText().querySelector('[data-claim="2"]')).not.toBeNull();
  });

  it("shows the service's status while it works, and not once the answer is done", () => {
    const states = statesOf("answer-stream.ndjson");
    const view = renderAnswer(states[0]!);
    expect(screen.getByRole("status").textContent).toContain("Searching 2 datasources");
    view.update(states.at(-1)!);
    expect(screen.getByRole("status").textContent).toBe("");
  });

  it("shows a stopped answer, cut off while the service was working, without the service's status", () => {
    const states = statesOf("answer-stream.ndjson");
    renderAnswer(states[1]!, { partial: true });
    expect(states[1]!.phase).toBe("streaming");
    expect(screen.getByTestId("cited-answer-partial").textContent).toContain("incomplete");
    expect(screen.getByRole("status").textContent).toBe("");
  });

  it("marks a stopped answer as incomplete, and a broken one with its request id", () => {
    const done = finalStateOf("answer-stream.ndjson");
    const view = renderAnswer(done, { partial: true });
    expect(screen.getByTestId("cited-answer-partial").textContent).toContain("incomplete");
    view.update({
      ...done,
      phase: "error",
      error: {
        type: "about:blank",
        title: "Bad gateway",
        status: 502,
        code: "upstream_unavailable",
        detail: "The service stopped.",
        request_id: "req_42",
      },
    });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("The service stopped.");
    expect(alert.textContent).toContain("req_42");
  });
});

describe("CitedAnswer: refusal", () => {
  it("shows a refusal as a refusal, with the topics the sources do cover, and no citation", () => {
    renderAnswer(finalStateOf("refusal-stream.ndjson"));
    const refusal = screen.getByTestId("cited-refusal");
    expect(within(refusal).getByText("Not in the sources")).toBeTruthy();
    expect(refusal.textContent).toContain("They do cover R installation, data import and graphics.");
    expect(screen.queryAllByTestId("cited-citation")).toHaveLength(0);
    expect(screen.getByTestId("cited-answer").hasAttribute("data-refusal")).toBe(true);
  });
});

describe("CitedAnswer: previews and keyboard", () => {
  it("on focus, marks the claim and previews the source: title, page, quote and how it backs the claim", async () => {
    const user = userEvent.setup();
    renderAnswer(finalStateOf("answer-stream.ndjson"));
    await user.tab();
    const button = screen.getByRole("button", { name: /^Source 1/ });
    expect(document.activeElement).toBe(button);
    const preview = screen.getByRole("region", { name: "Source preview" });
    expect(preview.textContent).toContain("R-intro.pdf");
    expect(preview.textContent).toContain("page 23");
    expect(preview.textContent).toContain("R is an integrated suite of software facilities");
    // A recorded answer from before claims said how they are backed: nothing is claimed about it.
    expect(preview.textContent).not.toMatch(/Backed|Quoted|supported/);
    expect(answerText().querySelector("[data-care]")).toBeNull();
    expect(answerText().querySelector('[data-claim="1"]')?.hasAttribute("data-active")).toBe(true);
    expect(button.getAttribute("aria-describedby")).toBe(preview.id);

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("region", { name: "Source preview" })).toBeNull();
  });

  it("keeps an open card current: a source that arrives while it is open is shown in it", async () => {
    const user = userEvent.setup();
    const streaming = { ...answerCiting([paragraphReference, tableReference]), phase: "streaming" as const };
    const firstOnly = {
      ...streaming,
      claims: { 1: { ...streaming.claims[1]!, reference_ids: [paragraphReference.id] } },
    };
    const view = renderAnswer(firstOnly);
    await user.tab();
    expect(screen.getByRole("region", { name: "Source preview" }).textContent).not.toContain("1 / 2");
    view.update(streaming);
    expect(screen.getByRole("region", { name: "Source preview" }).textContent).toContain("1 / 2");
  });

  it("closes a card opened by hovering with Escape, wherever the focus is", async () => {
    const user = userEvent.setup();
    renderAnswer(answerCiting([paragraphReference]));
    await user.hover(screen.getByRole("button", { name: /^Source 1/ }));
    expect(screen.getByRole("region", { name: "Source preview" })).toBeTruthy();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("region", { name: "Source preview" })).toBeNull();
  });

  it("marks a sentence its source backs only in part, says so in the card, and explains the mark below the answer", async () => {
    const user = userEvent.setup();
    renderAnswer(answerCiting([paragraphReference], 0.21));
    expect(answerText().querySelector('[data-claim="1"]')?.getAttribute("data-care")).toBe("check_source");
    expect(screen.getByTestId("cited-legend").textContent).toContain(
      "the source backs only part of the sentence",
    );
    await user.tab();
    const preview = screen.getByRole("region", { name: "Source preview" });
    expect(preview.textContent).toContain("Backed by this source: 21%.");
    expect(preview.textContent).toContain("The source backs only part of this sentence: check it.");
  });

  it("shows a quote as quoted, unmarked, and marks only the quotes that answer much less directly than the best", async () => {
    const user = userEvent.setup();
    const base = answerCiting([paragraphReference, tableReference], 1);
    const quote = (n: number, relevance: number) => ({
      n,
      text: `Sentence ${n}.`,
      reference_ids: [n === 1 ? paragraphReference.id : tableReference.id],
      support: 1,
      relevance,
      verbatim: true,
    });
    renderAnswer({
      ...base,
      text: `Sentence 1.{{GIST:1}}{{CIT:${paragraphReference.id}}} Sentence 2.{{GIST:2}}{{CIT:${tableReference.id}}}`,
      claims: { 1: quote(1, 0.9), 2: quote(2, 0.3) },
    });
    expect(answerText().querySelector('[data-claim="1"]')?.hasAttribute("data-care")).toBe(false);
    expect(answerText().querySelector('[data-claim="2"]')?.getAttribute("data-care")).toBe("related");
    expect(screen.getByTestId("cited-legend").textContent).toBe(
      "Dotted underline: related to the question, but it may not answer it directly.",
    );
    await user.tab();
    const preview = screen.getByRole("region", { name: "Source preview" });
    expect(preview.textContent).toContain("Quoted word for word from this source.");
    expect(preview.textContent).not.toContain("%");
  });

  it("marks the claim whose evidence the host shows, and only in the answer it belongs to", () => {
    const answer = answerCiting([paragraphReference]);
    const claim = answer.claims[1]!;
    const shown = { reference: paragraphReference, claim, messageId: answer.messageId! };
    const view = renderAnswer(answer, { openedEvidence: shown });
    expect(answerText().querySelector('[data-claim="1"]')?.hasAttribute("data-open")).toBe(true);
    view.update(answer, { openedEvidence: { ...shown, messageId: "msg_another00001" } });
    expect(answerText().querySelector('[data-claim="1"]')?.hasAttribute("data-open")).toBe(false);
    view.update(answer, { openedEvidence: null });
    expect(answerText().querySelector('[data-claim="1"]')?.hasAttribute("data-open")).toBe(false);
  });

  it("steps through a claim's several sources with the arrow keys, and opens the one shown", async () => {
    const user = userEvent.setup();
    const onOpenEvidence = vi.fn();
    renderAnswer(answerCiting([paragraphReference, tableReference, linkReference]), { onOpenEvidence });
    await user.tab();
    expect(screen.getByRole("button", { name: /^Source 1: backups\.md, and 2 more$/ }).textContent).toBe(
      "1+2",
    );
    const preview = () => screen.getByRole("region", { name: "Source preview" });
    expect(preview().textContent).toContain("1 / 3");
    await user.keyboard("{ArrowRight}");
    expect(preview().textContent).toContain("2 / 3");
    expect(preview().textContent).toContain("releases.csv");
    await user.keyboard("{ArrowLeft}{ArrowLeft}");
    expect(preview().textContent).toContain("3 / 3");
    await user.keyboard("{Enter}");
    expect(onOpenEvidence).toHaveBeenCalledWith({
      reference: linkReference,
      claim: expect.objectContaining({ n: 1 }),
      messageId: "msg_kinds000001",
    });
  });

  it("opens the evidence below the answer with Enter, moves focus to it, and Escape brings focus back", async () => {
    const user = userEvent.setup();
    renderAnswer(answerCiting([paragraphReference]));
    await user.tab();
    await user.keyboard("{Enter}");
    const evidence = screen.getByTestId("cited-text-evidence");
    expect(evidence.textContent).toContain("Keep three copies of your data");
    expect(screen.getByTestId("cited-inline-evidence").contains(document.activeElement)).toBe(true);
    await user.keyboard("{Escape}");
    expect(screen.queryByTestId("cited-text-evidence")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: /^Source 1/ }));
  });

  it("opens a source asked for before the answer is saved once it is, and says so meanwhile", async () => {
    const user = userEvent.setup();
    const onOpenEvidence = vi.fn();
    const answer = answerCiting([paragraphReference]);
    const view = renderAnswer(answer, { messageId: null, onOpenEvidence });
    await user.tab();
    expect(screen.getByRole("region", { name: "Source preview" }).textContent).toContain(
      "Opens once the answer is saved",
    );
    await user.keyboard("{Enter}");
    expect(onOpenEvidence).not.toHaveBeenCalled();
    view.update(answer, { messageId: "msg_saved0001" });
    expect(onOpenEvidence).toHaveBeenCalledTimes(1);
    expect(onOpenEvidence).toHaveBeenCalledWith(
      expect.objectContaining({ messageId: "msg_saved0001", reference: paragraphReference }),
    );
    view.update(answer, { messageId: "msg_saved0001" });
    expect(onOpenEvidence).toHaveBeenCalledTimes(1);
  });

  it("previews on hover, keeps the card open while the pointer moves into it, and while focus is in it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderAnswer(answerCiting([paragraphReference, tableReference]));
      const button = screen.getByRole("button", { name: /^Source 1/ });
      await user.hover(button);
      const card = screen.getByRole("region", { name: "Source preview" });
      await user.unhover(button);
      await user.hover(card);
      await act(() => vi.advanceTimersByTimeAsync(500));
      await user.click(within(card).getByRole("button", { name: "Next source" }));
      expect(screen.getByRole("region", { name: "Source preview" }).textContent).toContain("releases.csv");
      // The click put focus in the card: it stays while focus is there, and Escape closes it.
      await user.unhover(screen.getByRole("region", { name: "Source preview" }));
      await act(() => vi.advanceTimersByTimeAsync(500));
      expect(screen.getByRole("region", { name: "Source preview" })).toBeTruthy();
      await user.keyboard("{Escape}");
      expect(screen.queryByRole("region", { name: "Source preview" })).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("CitedAnswer: textual evidence of every kind", () => {
  async function openOnly(
    reference: Parameters<typeof answerCiting>[0][number],
    props: Partial<CitedAnswerProps> = {},
  ) {
    const user = userEvent.setup();
    renderAnswer(answerCiting([reference]), props);
    await user.click(screen.getByRole("button", { name: /^Source 1/ }));
  }

  it("a paragraph: its quote under the document title and section", async () => {
    await openOnly(paragraphReference);
    const evidence = screen.getByRole("region", { name: "backups.md" });
    expect(within(evidence).getByRole("heading", { name: "backups.md" })).toBeTruthy();
    expect(evidence.textContent).toContain("The 3-2-1 rule");
    expect(evidence.querySelector("blockquote")?.textContent).toBe(paragraphReference.quote);
  });

  it("names a source by its document's title where it has one, with the file's name beside it", async () => {
    const titled = {
      ...paragraphReference,
      metadata: { ...paragraphReference.metadata, document_title: "Backups at home" },
    };
    await openOnly(titled);
    expect(screen.getByRole("button", { name: "Source 1: Backups at home" })).toBeTruthy();
    const evidence = screen.getByTestId("cited-text-evidence");
    expect(within(evidence).getByRole("heading", { name: "Backups at home" })).toBeTruthy();
    expect(evidence.textContent).toContain("backups.md · The 3-2-1 rule");
  });

  it("a paragraph in its context: the sentences around it, the cited one marked", async () => {
    const context = {
      before: ["Backups fail quietly."],
      cited: [paragraphReference.quote],
      after: ["Test a restore each month."],
      code: false,
    };
    await openOnly({ ...paragraphReference, context });
    const evidence = screen.getByTestId("cited-text-evidence");
    expect(evidence.querySelector("blockquote")?.textContent).toBe(
      `Backups fail quietly. ${paragraphReference.quote} Test a restore each month.`,
    );
    expect(evidence.querySelector("mark")?.textContent).toBe(paragraphReference.quote);
  });

  it("a line of a code block among its lines, as code, the cited line marked", async () => {
    const context = {
      before: ["tar -czf backup.tgz /etc"],
      cited: ["split -b 2000m backup.tgz part-"],
      after: ["ls part-*"],
      code: true,
    };
    await openOnly({ ...paragraphReference, quote: context.cited[0]!, context });
    const code = screen.getByTestId("cited-evidence-code");
    expect(code.textContent).toBe("tar -czf backup.tgz /etc\nsplit -b 2000m backup.tgz part-\nls part-*");
    expect(code.querySelector("mark")?.textContent).toBe("split -b 2000m backup.tgz part-");
  });

  it("a table: a real table with its header, the cited row marked for eyes and for screen readers, no chart wording", async () => {
    await openOnly(tableReference);
    const table = screen.getByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Version", "Codename", "Released"]);
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => row.hasAttribute("data-cited"))).toEqual([false, false, true]);
    expect(rows[2]?.textContent).toContain("(cited)");
    expect(screen.getByTestId("cited-text-evidence").textContent).not.toMatch(/chart/i);
  });

  it("a transcript snippet: its time range as m:ss and the words said", async () => {
    await openOnly(transcriptReference);
    const evidence = screen.getByTestId("cited-text-evidence");
    expect(evidence.querySelector(".cited-evidence__time")?.textContent).toBe("From 1:05– to 1:21");
    expect(evidence.textContent).toContain("We restore the backup every Friday");
    expect(screen.getByRole("button", { name: "Source 1: meeting.vtt, 1:05–1:21" })).toBeTruthy();
  });

  it("a video interval: the time range past an hour, and a link to the video in a new tab", async () => {
    await openOnly(videoReference);
    expect(
      screen.getByTestId("cited-text-evidence").querySelector(".cited-evidence__time")?.textContent,
    ).toBe("From 1:02:05– to 1:02:20");
    const link = screen.getByRole("link", { name: /Open the video \(the passage starts at 1:02:05\)/ });
    expect(link.getAttribute("href")).toBe("https://video.example/watch?v=restore");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("a catalogue record: its fields as a list of names and values", async () => {
    await openOnly(catalogueReference);
    const terms = screen.getAllByRole("term").map((term) => term.textContent);
    const values = screen.getAllByRole("definition").map((value) => value.textContent);
    expect(terms).toEqual(["name", "version", "tags"]);
    expect(values).toEqual(["tar", "1.34", '["archive","gnu"]']);
  });

  it("an external link: opens in a new tab without handing over the opener or referrer", async () => {
    await openOnly(linkReference);
    const link = screen.getByRole("link", { name: /Open the page/ });
    expect(link.getAttribute("href")).toBe("https://wiki.example/Backup");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("never turns a javascript: URL from a source into a link", async () => {
    await openOnly(hostileLinkReference);
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByTestId("cited-text-evidence").textContent).toContain(hostileLinkReference.quote);
  });

  it("an image goes through the host's slot, which gets the reference and the message", async () => {
    const renderEvidence = vi.fn((reference: { kind: string; url: string | null }) =>
      reference.kind === "image" ? <img alt="The rack" src={reference.url ?? ""} /> : undefined,
    );
    await openOnly(imageReference, { renderEvidence });
    expect(screen.getByRole("img", { name: "The rack" })).toBeTruthy();
    expect(renderEvidence).toHaveBeenCalledWith(
      imageReference,
      expect.objectContaining({ messageId: "msg_kinds000001", authScope: "test:tenant:alice" }),
    );
  });
});
