/**
 * The chat (`/chat`, `/chat/{conversationId}`): the header with the signed-in user, the conversation
 * list, the messages with their cited answers, the composer, and the evidence panel.
 */
import { expect, type Locator, type Page } from "@playwright/test";
import { messageListSchema, type StoredMessage } from "../../sdk/core/wire.ts";
import { EvidencePanel } from "./evidence-panel.ts";

export type DetailLevel = "Succinct" | "Balanced" | "Detailed";
export type TechnicalityLevel = "Simple" | "Balanced" | "Technical";

export interface AskOptions {
  detail?: DetailLevel;
  technicality?: TechnicalityLevel;
}

/** One state an answer was shown in. */
export interface AnswerSnapshot {
  phase: string;
  text: string;
}

/** Whether `first` was on screen, the answer still streaming, before `second` had arrived. */
export function streamedInOrder(seen: readonly AnswerSnapshot[], first: string, second: string): boolean {
  return seen.some(
    (snapshot) =>
      snapshot.phase === "streaming" && snapshot.text.includes(first) && !snapshot.text.includes(second),
  );
}

/** A conversation's address: the app's chat (`/chat/{id}`) or the console's Try tab (`…/try/{id}`). */
const conversationPath =
  /\/(?:chat|try)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[/?#]|$)/;

/** The conversation list beside the chat, most recent first. */
export class ConversationList {
  readonly root: Locator;
  readonly items: Locator;
  readonly newConversationLink: Locator;
  /** The item of the conversation on screen (listed once the app has stored its first question). */
  readonly current: Locator;
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId("conversation-list");
    this.items = this.root.getByTestId("conversation-item");
    this.newConversationLink = page.getByRole("link", { name: "New conversation" });
    this.current = this.items.filter({ has: page.locator('a[aria-current="page"]') });
  }

  item(title: string | RegExp): Locator {
    return this.items.filter({ has: this.page.getByRole("link", { name: title }) });
  }

  async open(title: string | RegExp): Promise<void> {
    await this.item(title).getByRole("link", { name: title }).click();
  }

  async rename(title: string, newTitle: string): Promise<void> {
    await this.item(title)
      .getByRole("button", { name: `Rename ${title}` })
      .click();
    const input = this.root.getByLabel("Conversation title");
    await input.fill(newTitle);
    await input.press("Enter");
    await expect(this.item(newTitle)).toBeVisible();
  }

  async delete(title: string): Promise<void> {
    await this.item(title)
      .getByRole("button", { name: `Delete ${title}` })
      .click();
    await this.page.getByRole("dialog").getByRole("button", { name: "Delete conversation" }).click();
    await expect(this.item(title)).toHaveCount(0);
  }

  /** The titles as listed, top to bottom. */
  titles(): Promise<string[]> {
    return this.items.getByRole("link").allInnerTexts();
  }
}

export class ChatPage {
  readonly page: Page;
  readonly userName: Locator;
  readonly signOutButton: Locator;
  /** The header's "Chat": like "New conversation", it starts one. */
  readonly headerChatLink: Locator;
  readonly conversations: ConversationList;
  readonly questionInput: Locator;
  readonly detailSelect: Locator;
  readonly technicalitySelect: Locator;
  readonly askButton: Locator;
  readonly stopButton: Locator;
  readonly userMessages: Locator;
  readonly answers: Locator;
  /** The note under a last question that has no stored answer (yet). */
  readonly missingAnswer: Locator;
  readonly errorBanner: Locator;
  readonly evidence: EvidencePanel;

  constructor(page: Page) {
    this.page = page;
    this.userName = page.getByTestId("user-name");
    this.signOutButton = page.getByRole("button", { name: "Sign out" });
    this.headerChatLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat" });
    this.conversations = new ConversationList(page);
    this.questionInput = page.getByTestId("composer-input");
    this.detailSelect = page.getByLabel("Detail");
    this.technicalitySelect = page.getByLabel("Technicality");
    this.askButton = page.getByTestId("send-button");
    this.stopButton = page.getByTestId("stop-button");
    this.userMessages = page.getByTestId("message-user");
    this.answers = page.getByTestId("message-assistant");
    this.missingAnswer = page.getByTestId("message-unanswered");
    this.errorBanner = page.getByTestId("error-banner");
    this.evidence = new EvidencePanel(page);
  }

  async goto(conversationId?: string): Promise<void> {
    await this.page.goto(conversationId ? `/chat/${conversationId}` : "/chat");
    await expect(this.questionInput).toBeVisible();
  }

  /** Types the question, sets the levels asked for, and presses Ask; returns the answer being written. */
  async ask(question: string, options: AskOptions = {}): Promise<Locator> {
    const answersBefore = await this.answers.count();
    await this.questionInput.fill(question);
    if (options.detail) await this.detailSelect.selectOption({ label: options.detail });
    if (options.technicality) await this.technicalitySelect.selectOption({ label: options.technicality });
    await this.askButton.click();
    await expect(this.userMessages.last()).toContainText(question);
    await expect(this.answers).toHaveCount(answersBefore + 1);
    return this.answers.nth(answersBefore);
  }

  /**
   * Asks, then waits until the answer's stream has ended and the conversation is listed as the
   * current one: the app has then stored the turn and shows the stored copy.
   */
  async askAndWait(question: string, options: AskOptions = {}): Promise<Locator> {
    const answer = await this.ask(question, options);
    await this.expectAnswerDone(answer);
    await expect(this.conversations.current).toHaveCount(1);
    return answer;
  }

  async expectAnswerDone(answer: Locator): Promise<void> {
    await expect(answer.getByTestId("cited-answer")).toHaveAttribute("data-phase", "done", {
      timeout: 30_000,
    });
  }

  citations(answer: Locator): Locator {
    return answer.getByTestId("cited-citation");
  }

  /** Clicks the citation a screen reader announces as `label` ("Source 1: file.pdf, p. 3 · page 5 of the file"). */
  async openCitation(answer: Locator, label: string): Promise<void> {
    await answer.getByRole("button", { name: label, exact: true }).first().click();
    await expect(this.evidence.root).toBeVisible();
  }

  /**
   * Starts noting every state the newest answer is shown in (its phase and text), as the page
   * changes; the returned function reads what was seen. Polling could miss a short-lived state.
   */
  async recordAnswerSnapshots(): Promise<() => Promise<AnswerSnapshot[]>> {
    await this.page.evaluate(() => {
      const seen: Array<{ phase: string; text: string }> = [];
      Reflect.set(window, "__answerSnapshots", seen);
      const note = () => {
        const answers = document.querySelectorAll(
          '[data-testid="message-assistant"] [data-testid="cited-answer"]',
        );
        const newest = answers[answers.length - 1];
        if (!newest) return;
        const snapshot = {
          phase: newest.getAttribute("data-phase") ?? "",
          text: newest.querySelector('[data-testid="cited-answer-text"]')?.textContent ?? "",
        };
        const last = seen[seen.length - 1];
        if (last?.phase !== snapshot.phase || last.text !== snapshot.text) seen.push(snapshot);
      };
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    return () => this.page.evaluate(() => Reflect.get(window, "__answerSnapshots") as AnswerSnapshot[]);
  }

  /** The id in the address bar once the conversation exists (`/chat/{id}`). */
  /** The conversation's items in order, by kind: `message-user`, `message-assistant`, `message-unanswered`. */
  async turnKinds(): Promise<string[]> {
    return this.page
      .getByRole("list", { name: "Messages" })
      .locator(":scope > li")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-testid") ?? ""));
  }

  async conversationId(): Promise<string> {
    await expect(this.page).toHaveURL(conversationPath);
    const match = conversationPath.exec(this.page.url());
    if (!match?.[1]) throw new Error(`no conversation id in ${this.page.url()}`);
    return match[1];
  }

  /** The conversation's stored messages, read through the app's own route as the signed-in user. */
  async storedMessages(conversationId: string): Promise<StoredMessage[]> {
    const response = await this.page.request.get(`/api/cited/conversations/${conversationId}/messages`);
    expect(response.status(), await response.text()).toBe(200);
    return messageListSchema.parse(await response.json()).messages;
  }
}
