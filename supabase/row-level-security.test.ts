/**
 * Row-level security of the ServiceStore tables on real Postgres engines (Debian's PostgreSQL and
 * PGlite), each statement run as Supabase's Data API runs it: every policy with a case it allows
 * and one it refuses, anon locked out, and the SQL store's own statements working as the user.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFixture } from "@/sdk/core/fixtures/fixture-streams.ts";
import { reduceAnswerText } from "@/sdk/core/index.ts";
import { createSqlServiceStore } from "@/sdk/server/index.ts";
import { newMessageId } from "@/sdk/server/message-id.ts";
import {
  anonClaims,
  engines,
  migrate,
  type Query,
  runAs,
  type SupabaseDatabase,
  userClaims,
} from "./testing/supabase-database.ts";

/** What Postgres raises when a row fails a policy's `with check`, or a role lacks a privilege. */
const refused = { code: "42501" };
const recordedAnswer = reduceAnswerText(readFixture("answer-stream.ndjson"));

interface Thread {
  conversation: string;
  question: string;
  reference: string;
}

for (const engine of engines) {
  describe.runIf(engine.available)(`row-level security on ${engine.name}`, () => {
    let opened: SupabaseDatabase | undefined;
    const database = () => {
      if (opened === undefined) throw new Error("the database is not open");
      return opened;
    };
    const alice = crypto.randomUUID();
    const bob = crypto.randomUUID();
    /** A new user in auth.users, whose id is what auth.uid() returns for them. */
    const signUp = async (name: string) => {
      const id = crypto.randomUUID();
      await database().query("insert into auth.users (id, email) values ($1, $2)", [
        id,
        `${name}-${id}@example.com`,
      ]);
      return id;
    };
    const asUser = <T>(user: string, work: (query: Query) => Promise<T>) =>
      runAs(database(), userClaims(user), work);
    const asAnon = <T>(work: (query: Query) => Promise<T>) => runAs(database(), anonClaims, work);
    /** What is really in a table, read as the owner. */
    const count = async (table: string, where: string, params: unknown[]) => {
      const { rows } = await database().query(
        `select count(*)::int as n from ${table} where ${where}`,
        params,
      );
      return rows[0]?.n;
    };

    beforeAll(async () => {
      opened = await engine.open();
      await migrate(opened);
      await opened.query(
        "insert into auth.users (id, email) values ($1, 'alice@example.com'), ($2, 'bob@example.com')",
        [alice, bob],
      );
    });
    afterAll(async () => {
      await opened?.close();
    });

    /** A conversation of `user` with a question and one reference on it, written as that user. */
    const thread = (user: string): Promise<Thread> =>
      asUser(user, async (query) => {
        const conversation = crypto.randomUUID();
        const question = newMessageId();
        const reference = `ref_${crypto.randomUUID()}`;
        await query(
          "insert into cited.cited_conversations (id, user_id, title) values ($1, $2, 'Installing R')",
          [conversation, user],
        );
        await query(
          "insert into cited.cited_messages (id, conversation_id, user_id, role, content) values ($1, $2, $3, 'user', 'How?')",
          [question, conversation, user],
        );
        await query(
          "insert into cited.cited_references (message_id, reference_id, user_id, pdf_token) values ($1, $2, $3, 'token-1')",
          [question, reference, user],
        );
        return { conversation, question, reference };
      });

    it("runs a user's statements as authenticated with auth.uid() from the claims, and anon's as anon", async () => {
      const whoAmI =
        "select current_user as role, auth.uid() as id, r.rolsuper, r.rolbypassrls from pg_roles r where r.rolname = current_user";
      expect((await asUser(alice, (query) => query(whoAmI))).rows).toEqual([
        { role: "authenticated", id: alice, rolsuper: false, rolbypassrls: false },
      ]);
      expect((await asAnon((query) => query(whoAmI))).rows).toEqual([
        { role: "anon", id: null, rolsuper: false, rolbypassrls: false },
      ]);
    });

    describe("where the tables are", () => {
      it("are in schema cited, which the Data API does not expose, with their sequences; only signed-in users may use it", async () => {
        const { rows } = await database().query(
          `select n.nspname as schema, c.relname as name from pg_class c
           join pg_namespace n on n.oid = c.relnamespace
           where c.relname like 'cited\\_%' and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
           order by c.relname`,
        );
        expect(rows).toEqual(
          [
            "cited_conversations",
            "cited_conversations_activity",
            "cited_messages",
            "cited_messages_position_seq",
            "cited_references",
          ].map((name) => ({ schema: "cited", name })),
        );
        const { rows: usage } = await database().query(
          "select r.rolname as role, has_schema_privilege(r.rolname, 'cited', 'usage') as usage from pg_roles r where r.rolname in ('anon', 'authenticated') order by 1",
        );
        expect(usage).toEqual([
          { role: "anon", usage: false },
          { role: "authenticated", usage: true },
        ]);
      });

      it("still order new conversations by the activity sequence, now in cited", async () => {
        const { conversation } = await thread(alice);
        const { rows } = await database().query(
          `select pg_get_expr(d.adbin, d.adrelid) as activity_default from pg_attrdef d
           join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
           where d.adrelid = 'cited.cited_conversations'::regclass and a.attname = 'activity'`,
        );
        expect(rows).toEqual([
          { activity_default: "nextval('cited.cited_conversations_activity'::regclass)" },
        ]);
        const { conversation: later } = await thread(alice);
        const { rows: order } = await database().query(
          "select id from cited.cited_conversations where id = any($1) order by activity",
          [[conversation, later]],
        );
        expect(order).toEqual([{ id: conversation }, { id: later }]);
      });
    });

    // Below, another user's update or delete has no where clause: one that reads the rows brings
    // in the read policy too, which would hide a loose update or delete policy. The SQL store's
    // test at the end sends the targeted statements.
    describe("conversations", () => {
      it("are read by their owner; another user sees none of them", async () => {
        const { conversation } = await thread(alice);
        const read = (query: Query) =>
          query("select id from cited.cited_conversations where id = $1", [conversation]);
        expect((await asUser(alice, read)).rows).toEqual([{ id: conversation }]);
        expect((await asUser(bob, read)).rows).toEqual([]);
        const everything = await asUser(bob, (query) =>
          query("select user_id from cited.cited_conversations"),
        );
        expect(everything.rows.filter((row) => row.user_id !== bob)).toEqual([]);
      });

      it("are started by a user for herself, never in another user's name", async () => {
        const insert = (owner: string) => (query: Query) =>
          query("insert into cited.cited_conversations (id, user_id) values ($1, $2)", [
            crypto.randomUUID(),
            owner,
          ]);
        expect((await asUser(alice, insert(alice))).affected).toBe(1);
        await expect(asUser(bob, insert(alice))).rejects.toMatchObject(refused);
      });

      it("are renamed by their owner; another user's update leaves them as they were", async () => {
        const { conversation } = await thread(alice);
        await asUser(bob, (query) => query("update cited.cited_conversations set title = 'Taken by Bob'"));
        expect(
          await count("cited.cited_conversations", "id = $1 and title = 'Installing R'", [conversation]),
        ).toBe(1);
        const rename = (query: Query) =>
          query(
            "update cited.cited_conversations set title = 'R on Debian', activity = nextval('cited.cited_conversations_activity') where id = $1",
            [conversation],
          );
        expect((await asUser(alice, rename)).affected).toBe(1);
        expect(
          await count("cited.cited_conversations", "id = $1 and title = 'R on Debian'", [conversation]),
        ).toBe(1);
      });

      it("cannot be handed by their owner to another user", async () => {
        const { conversation } = await thread(alice);
        await expect(
          asUser(alice, (query) =>
            query("update cited.cited_conversations set user_id = $2 where id = $1", [conversation, bob]),
          ),
        ).rejects.toMatchObject(refused);
      });

      it("are deleted by their owner with their messages and references; another user's delete leaves them", async () => {
        const { conversation, question } = await thread(alice);
        await asUser(bob, (query) => query("delete from cited.cited_conversations"));
        expect(await count("cited.cited_references", "message_id = $1", [question])).toBe(1);
        expect(
          (
            await asUser(alice, (query) =>
              query("delete from cited.cited_conversations where id = $1", [conversation]),
            )
          ).affected,
        ).toBe(1);
        expect(await count("cited.cited_conversations", "id = $1", [conversation])).toBe(0);
        expect(await count("cited.cited_messages", "conversation_id = $1", [conversation])).toBe(0);
        expect(await count("cited.cited_references", "message_id = $1", [question])).toBe(0);
      });
    });

    describe("messages", () => {
      it("are read by their owner; another user sees none of them", async () => {
        const { conversation } = await thread(alice);
        const read = (query: Query) =>
          query("select content from cited.cited_messages where conversation_id = $1", [conversation]);
        expect((await asUser(alice, read)).rows).toEqual([{ content: "How?" }]);
        expect((await asUser(bob, read)).rows).toEqual([]);
      });

      it("are added by a user to her own conversation, never to another user's", async () => {
        const { conversation } = await thread(alice);
        const add = (owner: string) => (query: Query) =>
          query(
            "insert into cited.cited_messages (id, conversation_id, user_id, role, content) values ($1, $2, $3, 'user', 'Mine now?')",
            [newMessageId(), conversation, owner],
          );
        expect((await asUser(alice, add(alice))).affected).toBe(1);
        await expect(asUser(bob, add(bob))).rejects.toMatchObject(refused);
        await expect(asUser(bob, add(alice))).rejects.toMatchObject(refused);
        expect(await count("cited.cited_messages", "conversation_id = $1", [conversation])).toBe(2);
      });

      it("are changed by their owner; another user's update leaves them, and none moves to his conversation", async () => {
        const { conversation, question } = await thread(alice);
        const { conversation: bobsConversation } = await thread(bob);
        await asUser(bob, (query) => query("update cited.cited_messages set content = 'Bob was here'"));
        expect(await count("cited.cited_messages", "id = $1 and content = 'How?'", [question])).toBe(1);
        expect(
          (
            await asUser(alice, (query) =>
              query("update cited.cited_messages set content = 'Edited' where id = $1", [question]),
            )
          ).affected,
        ).toBe(1);
        await expect(
          asUser(alice, (query) =>
            query("update cited.cited_messages set conversation_id = $2 where id = $1", [
              question,
              bobsConversation,
            ]),
          ),
        ).rejects.toMatchObject(refused);
        expect(
          await count("cited.cited_messages", "id = $1 and content = 'Edited' and conversation_id = $2", [
            question,
            conversation,
          ]),
        ).toBe(1);
      });

      it("take ids unique per user: one that another user took first is still free for her, and both stay apart", async () => {
        const { conversation } = await thread(alice);
        const { conversation: bobsConversation } = await thread(bob);
        const id = newMessageId();
        const add = (owner: string, into: string, content: string) => (query: Query) =>
          query(
            "insert into cited.cited_messages (id, conversation_id, user_id, role, content) values ($1, $2, $3, 'assistant', $4)",
            [id, into, owner, content],
          );
        const cite = (owner: string, token: string) => (query: Query) =>
          query(
            "insert into cited.cited_references (message_id, reference_id, user_id, pdf_token) values ($1, 'ref_1', $2, $3)",
            [id, owner, token],
          );
        await asUser(bob, add(bob, bobsConversation, "Bob was first"));
        await asUser(bob, cite(bob, "bob-token"));

        expect((await asUser(alice, add(alice, conversation, "The answer"))).affected).toBe(1);
        expect((await asUser(alice, cite(alice, "alice-token"))).affected).toBe(1);
        const read = (query: Query) =>
          query(
            "select m.content, r.pdf_token from cited.cited_messages m join cited.cited_references r on r.message_id = m.id and r.user_id = m.user_id where m.id = $1",
            [id],
          );
        expect((await asUser(alice, read)).rows).toEqual([
          { content: "The answer", pdf_token: "alice-token" },
        ]);
        expect((await asUser(bob, read)).rows).toEqual([
          { content: "Bob was first", pdf_token: "bob-token" },
        ]);
        // Deleting one user's message takes only that user's references with it.
        await asUser(bob, (query) => query("delete from cited.cited_messages where id = $1", [id]));
        expect((await asUser(alice, read)).rows).toEqual([
          { content: "The answer", pdf_token: "alice-token" },
        ]);
      });

      it("are deleted by their owner; another user's delete leaves them", async () => {
        const { question } = await thread(alice);
        await asUser(bob, (query) => query("delete from cited.cited_messages"));
        expect(await count("cited.cited_messages", "id = $1", [question])).toBe(1);
        expect(
          (
            await asUser(alice, (query) =>
              query("delete from cited.cited_messages where id = $1", [question]),
            )
          ).affected,
        ).toBe(1);
        expect(await count("cited.cited_references", "message_id = $1", [question])).toBe(0);
      });
    });

    describe("references", () => {
      it("are read by their owner; another user sees none of them", async () => {
        const { question } = await thread(alice);
        const read = (query: Query) =>
          query("select pdf_token from cited.cited_references where message_id = $1", [question]);
        expect((await asUser(alice, read)).rows).toEqual([{ pdf_token: "token-1" }]);
        expect((await asUser(bob, read)).rows).toEqual([]);
      });

      it("are added by a user to her own message, never to another user's", async () => {
        const { question } = await thread(alice);
        const add = (owner: string) => (query: Query) =>
          query(
            "insert into cited.cited_references (message_id, reference_id, user_id) values ($1, $2, $3)",
            [question, `ref_${crypto.randomUUID()}`, owner],
          );
        expect((await asUser(alice, add(alice))).affected).toBe(1);
        await expect(asUser(bob, add(alice))).rejects.toMatchObject(refused);
        // In his own name the row passes his policy, and the ownership constraint refuses it: a
        // reference belongs to its message's user. The error is the same for a message that does
        // not exist, so it tells Bob nothing.
        await expect(asUser(bob, add(bob))).rejects.toMatchObject({ code: "23503" });
        await expect(
          asUser(bob, (query) =>
            query(
              "insert into cited.cited_references (message_id, reference_id, user_id) values ($1, 'ref_x', $2)",
              [newMessageId(), bob],
            ),
          ),
        ).rejects.toMatchObject({ code: "23503" });
        expect(await count("cited.cited_references", "message_id = $1", [question])).toBe(2);
      });

      it("have their PDF token replaced by their owner; another user's update leaves it, and none changes hands", async () => {
        const { question, reference } = await thread(alice);
        await asUser(bob, (query) => query("update cited.cited_references set pdf_token = 'stolen'"));
        expect(
          await count("cited.cited_references", "message_id = $1 and pdf_token = 'token-1'", [question]),
        ).toBe(1);
        const replace = (query: Query) =>
          query(
            "update cited.cited_references set pdf_token = 'token-2', refreshes = refreshes + 1 where message_id = $1 and reference_id = $2",
            [question, reference],
          );
        expect((await asUser(alice, replace)).affected).toBe(1);
        await expect(
          asUser(alice, (query) =>
            query("update cited.cited_references set user_id = $2 where message_id = $1", [question, bob]),
          ),
        ).rejects.toMatchObject(refused);
        expect(
          await count(
            "cited.cited_references",
            "message_id = $1 and pdf_token = 'token-2' and user_id = $2",
            [question, alice],
          ),
        ).toBe(1);
      });

      it("are deleted by their owner; another user's delete leaves them", async () => {
        const { question } = await thread(alice);
        await asUser(bob, (query) => query("delete from cited.cited_references"));
        expect(await count("cited.cited_references", "message_id = $1", [question])).toBe(1);
        expect(
          (
            await asUser(alice, (query) =>
              query("delete from cited.cited_references where message_id = $1", [question]),
            )
          ).affected,
        ).toBe(1);
        expect(await count("cited.cited_references", "message_id = $1", [question])).toBe(0);
      });
    });

    describe("anon, without a signed-in user", () => {
      it("reads nothing: the tables are not granted to anon", async () => {
        await thread(alice);
        for (const table of ["cited.cited_conversations", "cited.cited_messages", "cited.cited_references"]) {
          await expect(asAnon((query) => query(`select * from ${table}`))).rejects.toMatchObject(refused);
        }
      });

      it("writes nothing, takes no number from the sequences and cannot call the policies' helper", async () => {
        const { conversation, question } = await thread(alice);
        const attempts = [
          "insert into cited.cited_conversations (id, user_id) values (gen_random_uuid(), 'anon')",
          `update cited.cited_conversations set title = 'Anon was here' where id = '${conversation}'`,
          `delete from cited.cited_messages where id = '${question}'`,
          `delete from cited.cited_references where message_id = '${question}'`,
          "select nextval('cited.cited_conversations_activity')",
          "select nextval('cited.cited_messages_position_seq')",
          `select private.owns_conversation('${conversation}')`,
        ];
        for (const sql of attempts)
          await expect(asAnon((query) => query(sql))).rejects.toMatchObject(refused);
        expect(
          await count("cited.cited_conversations", "id = $1 and title = 'Installing R'", [conversation]),
        ).toBe(1);
      });
    });

    describe("the SQL store's statements, run as the signed-in user", () => {
      /** The SDK's SQL store with each statement sent as `user` through the Data API's path. */
      const storeOf = (user: string) =>
        createSqlServiceStore({
          client: {
            query: (sql, params) => runAs(database(), userClaims(user), (query) => query(sql, params)),
          },
          schema: "cited",
        });

      it("keep the owner's whole thread, and find none of it for another user", async () => {
        const alice = await signUp("alice");
        const bob = await signUp("bob");
        const store = storeOf(alice);
        const conversation = await store.createConversation(alice);
        const question = await store.addUserMessage(alice, conversation.id, "What is R?");
        const messageId = newMessageId();
        await store.saveAnswer(alice, conversation.id, messageId, recordedAnswer, { partial: true });
        const answer = await store.saveAnswer(alice, conversation.id, messageId, recordedAnswer, {
          partial: false,
        });
        const [referenceId] = Object.keys(recordedAnswer.references);
        if (referenceId === undefined) throw new Error("the recorded answer has no reference");
        const token = { token: "token-2", expires_at: "2030-01-01T00:00:00.000Z" };

        expect(await store.listMessages(alice, conversation.id)).toEqual([question, answer]);
        expect(await store.findReference(alice, messageId, referenceId)).toMatchObject({
          messageId,
          refreshes: 0,
        });
        expect(await store.replaceReferenceToken(alice, messageId, referenceId, token)).toBe(true);
        expect(await store.renameConversation(alice, conversation.id, "R")).toMatchObject({ title: "R" });

        const bobs = storeOf(bob);
        expect(await bobs.listConversations(bob)).toEqual([]);
        expect(await bobs.getConversation(bob, conversation.id)).toBeNull();
        expect(await bobs.listMessages(bob, conversation.id)).toBeNull();
        expect(await bobs.addUserMessage(bob, conversation.id, "Me too")).toBeNull();
        expect(
          await bobs.saveAnswer(bob, conversation.id, newMessageId(), recordedAnswer, { partial: false }),
        ).toBeNull();
        expect(await bobs.findReference(bob, messageId, referenceId)).toBeNull();
        expect(await bobs.replaceReferenceToken(bob, messageId, referenceId, token)).toBe(false);
        expect(await bobs.renameConversation(bob, conversation.id, "Bob's")).toBeNull();
        expect(await bobs.deleteConversation(bob, conversation.id)).toBe(false);

        expect(await store.listConversations(alice)).toEqual([
          await store.getConversation(alice, conversation.id),
        ]);
        expect(await store.deleteConversation(alice, conversation.id)).toBe(true);
        expect(await count("cited.cited_references", "message_id = $1", [messageId])).toBe(0);
      });
    });
  });
}
