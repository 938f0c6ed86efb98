/** The behaviour every ServiceStore must show; each implementation's test file runs it against its engine. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFixture } from "../core/fixtures/fixture-streams.ts";
import { type AnswerState, reduceAnswerText } from "../core/index.ts";
import type { Reference } from "../core/wire.ts";
import { newMessageId } from "./message-id.ts";
import type { ServiceStore } from "./service-store.ts";

export interface OpenedStore {
  store: ServiceStore;
  close(): Promise<void> | void;
}

const recordedAnswer = reduceAnswerText(readFixture("answer-stream.ndjson"));
const recordedRefusal = reduceAnswerText(readFixture("refusal-stream.ndjson"));
const pdfReferenceId = "ref_7Hq2mX9pLc";
const paragraphReference: Reference = {
  id: "ref_Pa7agraph01",
  kind: "paragraph",
  id_datasource: "ds_Kx8fP2nQ4m",
  id_document: "doc_Readme0001",
  title: "README.md",
  quote: "Install with apt.",
  url: null,
  metadata: {},
};

/** The recorded answer under a fresh message id. */
function answer(overrides: Partial<AnswerState> = {}): AnswerState & { messageId: string } {
  return { ...recordedAnswer, messageId: newMessageId(), ...overrides } as AnswerState & {
    messageId: string;
  };
}

/**
 * Registers the ServiceStore contract tests. `open` runs once before them; each test uses its
 * own user ids, so the tests share one store without seeing each other's rows.
 *
 * @example
 * describeServiceStoreContract("memory", async () => ({ store: createMemoryServiceStore(), close() {} }));
 */
export function describeServiceStoreContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`ServiceStore contract: ${name}`, () => {
    let opened: OpenedStore | undefined;
    const store = () => opened!.store;
    beforeAll(async () => {
      opened = await open();
    });
    afterAll(async () => {
      await opened?.close();
    });

    const user = () => `user-${crypto.randomUUID()}`;

    it("creates conversations with UUID ids and lists them for their user, most recently active first", async () => {
      const alice = user();
      const first = await store().createConversation(alice, "Installing R");
      const second = await store().createConversation(alice);

      expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(first).toMatchObject({ title: "Installing R" });
      expect(second.title).toBeNull();
      expect((await store().listConversations(alice)).map((item) => item.id)).toEqual([second.id, first.id]);

      await store().addUserMessage(alice, first.id, "Which platforms does R run on?");
      const listed = await store().listConversations(alice);
      expect(listed.map((item) => item.id)).toEqual([first.id, second.id]);
      expect(Date.parse(listed[0]!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.updatedAt));
      expect(await store().getConversation(alice, second.id)).toEqual(second);
    });

    it("titles an untitled conversation with its first question, and keeps that title", async () => {
      const alice = user();
      const conversation = await store().createConversation(alice);
      await store().addUserMessage(alice, conversation.id, "  What is R?\n\nAnd where does it run?  ");
      await store().addUserMessage(alice, conversation.id, "Something else");

      expect((await store().getConversation(alice, conversation.id))?.title).toBe(
        "What is R? And where does it run?",
      );
    });

    it("keeps messages in the order they were added, with each answer's final state", async () => {
      const alice = user();
      const { id } = await store().createConversation(alice);
      const question = await store().addUserMessage(alice, id, "What is R?");
      const first = answer();
      await store().saveAnswer(alice, id, first.messageId, first, { partial: false });
      await store().addUserMessage(alice, id, "How do I bake a crème brûlée?");
      const refusal = { ...recordedRefusal, messageId: newMessageId() };
      await store().saveAnswer(alice, id, refusal.messageId, refusal, { partial: false });

      const messages = await store().listMessages(alice, id);
      expect(messages?.map((message) => [message.role, message.text])).toEqual([
        ["user", "What is R?"],
        ["assistant", first.text],
        ["user", "How do I bake a crème brûlée?"],
        ["assistant", refusal.text],
      ]);
      expect(messages?.[0]).toEqual(question);
      expect(messages?.[0]).toMatchObject({
        id: expect.stringMatching(/^msg_/),
        answer: null,
        partial: false,
      });
      expect(messages?.[1]).toMatchObject({ id: first.messageId, conversationId: id, partial: false });
      expect(messages?.[1]?.answer).toEqual(first);
      expect(messages?.[3]?.answer?.refusal).toBe(true);
    });

    it("stores a cut-off answer as partial, and a later save of the same message replaces it in place", async () => {
      const alice = user();
      const { id } = await store().createConversation(alice);
      await store().addUserMessage(alice, id, "What is R?");
      const cutOff = answer({ phase: "streaming", text: "R is a free", usage: null });
      const saved = await store().saveAnswer(alice, id, cutOff.messageId, cutOff, { partial: true });
      expect(saved).toMatchObject({ id: cutOff.messageId, partial: true, text: "R is a free" });
      expect(saved?.answer?.phase).toBe("streaming");

      const complete = { ...recordedAnswer, messageId: cutOff.messageId };
      await store().saveAnswer(alice, id, cutOff.messageId, complete, { partial: false });
      const messages = await store().listMessages(alice, id);
      expect(messages).toHaveLength(2);
      expect(messages?.[1]).toMatchObject({ id: cutOff.messageId, partial: false, text: complete.text });
      expect(messages?.[1]?.createdAt).toBe(saved?.createdAt);
    });

    it("shows nothing of a user's conversations to another user", async () => {
      const alice = user();
      const mallory = user();
      const { id } = await store().createConversation(alice, "Private");
      await store().addUserMessage(alice, id, "What is R?");
      const saved = answer();
      await store().saveAnswer(alice, id, saved.messageId, saved, { partial: false });

      expect(await store().listConversations(mallory)).toEqual([]);
      expect(await store().getConversation(mallory, id)).toBeNull();
      expect(await store().listMessages(mallory, id)).toBeNull();
      expect(await store().addUserMessage(mallory, id, "injected")).toBeNull();
      const forged = answer({ text: "forged" });
      expect(await store().saveAnswer(mallory, id, forged.messageId, forged, { partial: false })).toBeNull();
      expect(await store().saveAnswer(mallory, id, saved.messageId, forged, { partial: false })).toBeNull();
      expect(await store().findReference(mallory, saved.messageId, pdfReferenceId)).toBeNull();
      const token = { token: "stolen", expires_at: "2030-01-01T00:00:00.000Z" };
      expect(await store().replaceReferenceToken(mallory, saved.messageId, pdfReferenceId, token)).toBe(
        false,
      );

      const messages = await store().listMessages(alice, id);
      expect(messages?.map((message) => message.text)).toEqual(["What is R?", saved.text]);
      expect((await store().findReference(alice, saved.messageId, pdfReferenceId))?.pdf?.token).not.toBe(
        "stolen",
      );
    });

    it("finds a reference only for the user who owns the answer that cited it", async () => {
      const alice = user();
      const { id } = await store().createConversation(alice);
      const saved = answer({
        references: { ...recordedAnswer.references, [paragraphReference.id]: paragraphReference },
      });
      await store().saveAnswer(alice, id, saved.messageId, saved, { partial: false });

      const found = await store().findReference(alice, saved.messageId, pdfReferenceId);
      const original = recordedAnswer.references[pdfReferenceId];
      expect(found).toMatchObject({ messageId: saved.messageId, conversationId: id, refreshes: 0 });
      expect(found?.reference).toEqual(original);
      expect(found?.pdf?.token).toBe(original?.kind === "pdf_highlight" ? original.pdf.token : null);
      expect((await store().findReference(alice, saved.messageId, paragraphReference.id))?.pdf).toBeNull();
      expect(await store().findReference(alice, saved.messageId, "ref_Unknown0001")).toBeNull();
      expect(await store().findReference(alice, newMessageId(), pdfReferenceId)).toBeNull();
    });

    it("replaces a reference's token after a refresh and keeps it when the answer is saved again", async () => {
      const alice = user();
      const { id } = await store().createConversation(alice);
      const saved = answer();
      await store().saveAnswer(alice, id, saved.messageId, saved, { partial: false });
      const renewed = { token: "renewed-token", expires_at: "2030-01-01T00:10:00.000Z" };

      expect(await store().replaceReferenceToken(alice, saved.messageId, pdfReferenceId, renewed)).toBe(true);
      await store().saveAnswer(alice, id, saved.messageId, saved, { partial: false });

      const found = await store().findReference(alice, saved.messageId, pdfReferenceId);
      expect(found).toMatchObject({ refreshes: 1, pdf: { token: "renewed-token" } });
      expect(Date.parse(found?.pdf?.expires_at ?? "")).toBe(Date.parse(renewed.expires_at));
      expect(await store().replaceReferenceToken(alice, saved.messageId, "ref_Unknown0001", renewed)).toBe(
        false,
      );
    });

    it("answers null (or false) for unknown and malformed ids instead of failing", async () => {
      const alice = user();
      const unknown = crypto.randomUUID();
      const saved = answer();

      for (const id of [unknown, "not-a-uuid"]) {
        expect(await store().getConversation(alice, id)).toBeNull();
        expect(await store().listMessages(alice, id)).toBeNull();
        expect(await store().addUserMessage(alice, id, "hello")).toBeNull();
        expect(await store().saveAnswer(alice, id, saved.messageId, saved, { partial: false })).toBeNull();
        expect(await store().renameConversation(alice, id, "Renamed")).toBeNull();
        expect(await store().deleteConversation(alice, id)).toBe(false);
      }
      expect(await store().findReference(alice, "msg_Unknown000001", pdfReferenceId)).toBeNull();
      const token = { token: "t", expires_at: "2030-01-01T00:00:00.000Z" };
      expect(await store().replaceReferenceToken(alice, "msg_Unknown000001", pdfReferenceId, token)).toBe(
        false,
      );
      expect(await store().listConversations(alice)).toEqual([]);
    });

    it("never moves an answer into another conversation, or over a question, by reusing a message id", async () => {
      const alice = user();
      const first = await store().createConversation(alice);
      const second = await store().createConversation(alice);
      const saved = answer();
      await store().saveAnswer(alice, first.id, saved.messageId, saved, { partial: false });

      expect(
        await store().saveAnswer(alice, second.id, saved.messageId, saved, { partial: false }),
      ).toBeNull();
      const question = await store().addUserMessage(alice, second.id, "What is R?");
      const overwrite = { ...saved, messageId: question!.id };
      expect(
        await store().saveAnswer(alice, second.id, question!.id, overwrite, { partial: false }),
      ).toBeNull();
      expect((await store().listMessages(alice, second.id))?.map((message) => message.role)).toEqual([
        "user",
      ]);
      expect((await store().listMessages(alice, first.id))?.map((message) => message.id)).toEqual([
        saved.messageId,
      ]);
    });

    it("never changes or shows a message of another user who holds the same message id", async () => {
      const alice = user();
      const mallory = user();
      const his = await store().createConversation(mallory);
      const taken = answer({ text: "Mallory's" });
      await store().saveAnswer(mallory, his.id, taken.messageId, taken, { partial: false });
      const { id } = await store().createConversation(alice);

      const saved = await store().saveAnswer(
        alice,
        id,
        taken.messageId,
        answer({ messageId: taken.messageId }),
        {
          partial: false,
        },
      );

      // Message ids may be unique per user (the Supabase store's, whose users can write messages
      // through its functions) or across users (null here); either way the two stay apart.
      if (saved !== null) {
        expect(saved).toMatchObject({ conversationId: id, text: recordedAnswer.text });
        expect(await store().findReference(alice, taken.messageId, pdfReferenceId)).toMatchObject({
          conversationId: id,
        });
      }
      expect((await store().listMessages(mallory, his.id))?.map((message) => message.text)).toEqual([
        "Mallory's",
      ]);
      expect(await store().findReference(mallory, taken.messageId, pdfReferenceId)).toMatchObject({
        conversationId: his.id,
      });
    });

    it("renames a conversation without moving it up the list: only questions and answers do that", async () => {
      const alice = user();
      const first = await store().createConversation(alice, "Installing R");
      const second = await store().createConversation(alice);
      await store().addUserMessage(alice, first.id, "Which platforms does R run on?");
      const before = await store().getConversation(alice, second.id);

      const renamed = await store().renameConversation(alice, second.id, "  Plotting with gnuplot \n");

      expect(renamed).toEqual({ ...before, title: "Plotting with gnuplot" });
      expect(await store().getConversation(alice, second.id)).toEqual(renamed);
      expect((await store().listConversations(alice)).map((item) => item.id)).toEqual([first.id, second.id]);
    });

    it.each([
      ["empty", " \n "],
      ["over 200 characters", "a".repeat(201)],
    ])("refuses a new title that is %s, as creating does, and keeps the old one", async (_, title) => {
      const alice = user();
      const { id } = await store().createConversation(alice, "Installing R");

      await expect(store().renameConversation(alice, id, title)).rejects.toThrow(/title/);
      expect((await store().getConversation(alice, id))?.title).toBe("Installing R");
    });

    it("trims a new title and takes one of 200 characters", async () => {
      const alice = user();
      const { id } = await store().createConversation(alice);

      expect((await store().renameConversation(alice, id, ` ${"a".repeat(200)} `))?.title).toBe(
        "a".repeat(200),
      );
    });

    it("deletes a conversation with its messages, and its answers' PDFs can no longer be served", async () => {
      const alice = user();
      const kept = await store().createConversation(alice, "Kept");
      const { id } = await store().createConversation(alice, "Deleted");
      await store().addUserMessage(alice, id, "What is R?");
      const saved = answer();
      // Saved twice: the first version cited a reference the final one does not.
      const firstVersion = { ...saved, references: { [paragraphReference.id]: paragraphReference } };
      await store().saveAnswer(alice, id, saved.messageId, firstVersion, { partial: true });
      await store().saveAnswer(alice, id, saved.messageId, saved, { partial: false });

      expect(await store().deleteConversation(alice, id)).toBe(true);

      expect(await store().listConversations(alice)).toEqual([kept]);
      expect(await store().getConversation(alice, id)).toBeNull();
      expect(await store().listMessages(alice, id)).toBeNull();
      expect(await store().addUserMessage(alice, id, "Still there?")).toBeNull();
      expect(await store().findReference(alice, saved.messageId, pdfReferenceId)).toBeNull();
      const token = { token: "renewed", expires_at: "2030-01-01T00:00:00.000Z" };
      for (const referenceId of [pdfReferenceId, paragraphReference.id]) {
        expect(await store().replaceReferenceToken(alice, saved.messageId, referenceId, token)).toBe(false);
      }
      expect(await store().deleteConversation(alice, id)).toBe(false);
      expect(await store().renameConversation(alice, id, "Back")).toBeNull();
    });

    it("lets nobody but its user rename or delete a conversation", async () => {
      const alice = user();
      const mallory = user();
      const { id } = await store().createConversation(alice, "Private");
      const saved = answer();
      await store().saveAnswer(alice, id, saved.messageId, saved, { partial: false });
      const before = await store().getConversation(alice, id);

      expect(await store().renameConversation(mallory, id, "Taken")).toBeNull();
      expect(await store().deleteConversation(mallory, id)).toBe(false);

      expect(await store().getConversation(alice, id)).toEqual(before);
      expect(await store().listMessages(alice, id)).toHaveLength(1);
      expect(await store().findReference(alice, saved.messageId, pdfReferenceId)).not.toBeNull();
    });
  });
}
