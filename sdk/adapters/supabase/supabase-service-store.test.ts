/**
 * The Supabase store end to end but for hosted Supabase: supabase-js → the stand-in's gateway and
 * PostgREST protocol → the real migrations, policies and functions on PGlite (and PostgreSQL).
 */
import { readdirSync, readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { createClient } from "@supabase/supabase-js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inMemoryPgliteOptions } from "../../../service/testing/pglite-template.ts";
import { postgresAvailable, startPostgres } from "../../../service/testing/postgres.ts";
import { readFixture } from "../../core/fixtures/fixture-streams.ts";
import { reduceAnswerText } from "../../core/index.ts";
import { createServiceHandler } from "../../server/create-service-handler.ts";
import { newMessageId } from "../../server/message-id.ts";
import { describeServiceStoreContract } from "../../server/service-store.contract.ts";
import type { ServiceStore } from "../../server/service-store.ts";
import { createSqlServiceStore } from "../../server/sql-service-store.ts";
import { bearerToken, createSupabaseAuthenticate } from "./supabase-authenticate.ts";
import {
  createSupabaseServiceStore,
  createSupabaseUserClient,
  SupabaseStoreError,
} from "./supabase-service-store.ts";
import { createPostgrestStandIn } from "./testing/postgrest-stand-in.ts";
import { type SupabaseStandIn, startSupabaseStandIn } from "./testing/supabase-stand-in.ts";

const supabaseFolder = new URL("../../../supabase/", import.meta.url);
const recordedAnswer = reduceAnswerText(readFixture("answer-stream.ndjson"));
/** The recorded answer's PDF reference. */
const pdfReferenceId = "ref_7Hq2mX9pLc";

/** What Supabase provides, then every migration in name order: the schema of a Supabase project. */
function projectSql(): string[] {
  const migrations = new URL("migrations/", supabaseFolder);
  const names = readdirSync(migrations)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  return [
    readFileSync(new URL("local-platform.sql", supabaseFolder), "utf8"),
    ...names.map((name) => readFileSync(new URL(name, migrations), "utf8")),
  ];
}

async function migratedPglite(): Promise<PGlite> {
  const database = await PGlite.create(inMemoryPgliteOptions());
  for (const sql of projectSql()) await database.exec(sql);
  return database;
}

interface Project {
  database: PGlite;
  standIn: SupabaseStandIn;
}

/** One project for the file (starting PGlite and migrating it is the slow part); users keep tests apart. */
let sharedProject: Promise<Project> | undefined;
const project = () => {
  sharedProject ??= migratedPglite().then(async (database) => ({
    database,
    standIn: await startSupabaseStandIn({ rest: createPostgrestStandIn(database) }),
  }));
  return sharedProject;
};
afterAll(async () => {
  const opened = await sharedProject;
  await opened?.standIn.close();
  await opened?.database.close();
});

interface SignedIn {
  id: string;
  accessToken: string;
}

/** A confirmed user of the stand-in, signed in with supabase-js as a browser would be. */
async function signIn(standIn: SupabaseStandIn, email: string): Promise<SignedIn> {
  const password = "correct horse battery staple";
  const { id } = standIn.createUser(email, password);
  const auth = createClient(standIn.url, standIn.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await auth.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { id, accessToken: data.session.access_token };
}

function storeOf(standIn: SupabaseStandIn, user: SignedIn): ServiceStore {
  return createSupabaseServiceStore({
    client: createSupabaseUserClient({
      supabaseUrl: standIn.url,
      supabaseKey: standIn.publishableKey,
      accessToken: user.accessToken,
    }),
    userId: user.id,
  });
}

/**
 * The contract names its users `user-<uuid>` and expects each to be separate. Each becomes a real
 * user of the stand-in with their own access token and store, as one request of the handler
 * would open it; the contract's id is swapped for the user's Supabase id on the way in.
 */
function storePerUser(standIn: SupabaseStandIn): ServiceStore {
  const users = new Map<string, Promise<{ id: string; store: ServiceStore }>>();
  const as = (contractUser: string) => {
    let user = users.get(contractUser);
    if (!user) {
      user = signIn(standIn, `${contractUser}@example.test`).then((signedIn) => ({
        id: signedIn.id,
        store: storeOf(standIn, signedIn),
      }));
      users.set(contractUser, user);
    }
    return user;
  };
  return {
    createConversation: async (userId, title) => {
      const { id, store } = await as(userId);
      return store.createConversation(id, title);
    },
    listConversations: async (userId) => {
      const { id, store } = await as(userId);
      return store.listConversations(id);
    },
    getConversation: async (userId, conversationId) => {
      const { id, store } = await as(userId);
      return store.getConversation(id, conversationId);
    },
    renameConversation: async (userId, conversationId, title) => {
      const { id, store } = await as(userId);
      return store.renameConversation(id, conversationId, title);
    },
    deleteConversation: async (userId, conversationId) => {
      const { id, store } = await as(userId);
      return store.deleteConversation(id, conversationId);
    },
    addUserMessage: async (userId, conversationId, text) => {
      const { id, store } = await as(userId);
      return store.addUserMessage(id, conversationId, text);
    },
    saveAnswer: async (userId, conversationId, messageId, answer, options) => {
      const { id, store } = await as(userId);
      return store.saveAnswer(id, conversationId, messageId, answer, options);
    },
    listMessages: async (userId, conversationId) => {
      const { id, store } = await as(userId);
      return store.listMessages(id, conversationId);
    },
    findReference: async (userId, messageId, referenceId) => {
      const { id, store } = await as(userId);
      return store.findReference(id, messageId, referenceId);
    },
    replaceReferenceToken: async (userId, messageId, referenceId, token) => {
      const { id, store } = await as(userId);
      return store.replaceReferenceToken(id, messageId, referenceId, token);
    },
  };
}

describeServiceStoreContract("Supabase store (supabase-js → stand-in → PGlite with RLS)", async () => {
  const { standIn } = await project();
  return { store: storePerUser(standIn), close() {} };
});

describe.runIf(postgresAvailable)("on PostgreSQL", () => {
  describeServiceStoreContract("Supabase store (supabase-js → stand-in → PostgreSQL with RLS)", async () => {
    const postgres = await startPostgres();
    const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    const standIn = await startSupabaseStandIn({ rest: createPostgrestStandIn(pool) });
    for (const sql of projectSql()) await pool.query(sql);
    return {
      store: storePerUser(standIn),
      async close() {
        await standIn.close();
        await pool.end();
        postgres.stop();
      },
    };
  });
});

describeServiceStoreContract("SQL store on the migrated schema (PGlite)", async () => {
  const { database } = await project();
  return { store: createSqlServiceStore({ client: database, schema: "cited" }), close() {} };
});

describe("the Supabase store", () => {
  let database: PGlite;
  let standIn: SupabaseStandIn;
  const rpcCalls = () =>
    Object.entries(standIn.requests)
      .filter(([route]) => route.startsWith("POST /rest/v1/rpc/"))
      .reduce((sum, [, count]) => sum + count, 0);

  beforeAll(async () => {
    ({ database, standIn } = await project());
  });

  it("refuses, before any request, a call for another user than its access token's", async () => {
    const alice = await signIn(standIn, "alice@example.test");
    const store = storeOf(standIn, alice);
    const before = rpcCalls();

    for (const call of [
      () => store.listConversations("someone-else"),
      () => store.getConversation("someone-else", "not-a-uuid"),
    ]) {
      const error = await call().catch((thrown: unknown) => thrown);
      expect(SupabaseStoreError.isInstance(error) && error.code).toBe("user_mismatch");
    }
    expect(rpcCalls()).toBe(before);
  });

  it("serves the handler's routes as the user whose access token each request carries", async () => {
    const frank = await signIn(standIn, "frank@example.test");
    const grace = await signIn(standIn, "grace@example.test");
    const origin = "https://app.example";
    const handler = createServiceHandler({
      baseUrl: "http://service.test",
      assistantId: "asst_Test0001",
      apiKey: "sk_test_key",
      allowedOrigin: origin,
      authenticate: createSupabaseAuthenticate({ supabaseUrl: standIn.url }),
      store: ({ request, user }) =>
        createSupabaseServiceStore({
          client: createSupabaseUserClient({
            supabaseUrl: standIn.url,
            supabaseKey: standIn.publishableKey,
            accessToken: bearerToken(request)!,
          }),
          userId: user.id,
        }),
    });
    const call = (method: string, path: string, accessToken: string, body?: string) =>
      handler(
        new Request(`${origin}/api/cited${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${accessToken}`,
            Origin: origin,
            "Content-Type": "application/json",
          },
          ...(body === undefined ? {} : { body }),
        }),
      );

    const created = await call("POST", "/conversations", frank.accessToken, '{"title":"Frank\'s"}');
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    expect(await (await call("GET", "/conversations", frank.accessToken)).json()).toMatchObject({
      conversations: [{ id, title: "Frank's" }],
    });
    expect((await call("GET", `/conversations/${id}`, grace.accessToken)).status).toBe(404);
    expect((await call("DELETE", `/conversations/${id}`, grace.accessToken)).status).toBe(404);
    expect(await (await call("GET", "/conversations", grace.accessToken)).json()).toEqual({
      conversations: [],
    });
    expect((await call("GET", "/conversations", standIn.publishableKey)).status).toBe(401);
    expect((await call("GET", `/conversations/${id}`, frank.accessToken)).status).toBe(200);
  });

  it("keeps each user's rows in the database under their own Supabase id", async () => {
    const bob = await signIn(standIn, "bob@example.test");
    const { id } = await storeOf(standIn, bob).createConversation(bob.id, "Bob's");

    const rows = await database.query("select user_id from cited.cited_conversations where id = $1", [id]);
    expect(rows.rows).toEqual([{ user_id: bob.id }]);
  });

  it("keeps a user's answer under an id another user took first, through the Data API, and leaves his message alone", async () => {
    const mallory = await signIn(standIn, "mallory@example.test");
    const alice = await signIn(standIn, "alice-answers@example.test");
    const taken = newMessageId();
    const mine = await storeOf(standIn, mallory).createConversation(mallory.id);
    // What anyone signed in can send: the store's own function, with an id of his choosing.
    const claimed = await createSupabaseUserClient({
      supabaseUrl: standIn.url,
      supabaseKey: standIn.publishableKey,
      accessToken: mallory.accessToken,
    }).rpc("cited_add_user_message", {
      conversation: mine.id,
      message: taken,
      question: "Mine first",
      question_title: "Mine first",
    });
    expect(claimed.error).toBeNull();

    const store = storeOf(standIn, alice);
    const { id } = await store.createConversation(alice.id);
    const saved = await store.saveAnswer(
      alice.id,
      id,
      taken,
      { ...recordedAnswer, messageId: taken },
      {
        partial: false,
      },
    );

    expect(saved).toMatchObject({ id: taken, conversationId: id, text: recordedAnswer.text });
    expect(await store.findReference(alice.id, taken, pdfReferenceId)).toMatchObject({ conversationId: id });
    expect(
      (await storeOf(standIn, mallory).listMessages(mallory.id, mine.id))?.map((message) => message.text),
    ).toEqual(["Mine first"]);
    expect(await storeOf(standIn, mallory).findReference(mallory.id, taken, pdfReferenceId)).toBeNull();
  });

  it("leaves a signed-in user no way to the tables themselves: they are not in an exposed schema", async () => {
    const mallory = await signIn(standIn, "mallory-direct@example.test");
    const store = storeOf(standIn, mallory);
    const { id } = await store.createConversation(mallory.id);
    const messageId = newMessageId();
    await store.saveAnswer(mallory.id, id, messageId, { ...recordedAnswer, messageId }, { partial: false });
    const client = createSupabaseUserClient({
      supabaseUrl: standIn.url,
      supabaseKey: standIn.publishableKey,
      accessToken: mallory.accessToken,
    });
    const notFound = (table: string) => ({
      code: "PGRST205",
      message: `Could not find the table 'public.${table}' in the schema cache`,
    });

    const read = await client.from("cited_messages").select("*");
    expect(read.status).toBe(404);
    expect(read.error).toMatchObject(notFound("cited_messages"));
    const rewrite = await client.from("cited_messages").update({ answer: null }).eq("id", messageId);
    expect(rewrite.status).toBe(404);
    expect(rewrite.error).toMatchObject(notFound("cited_messages"));
    const reset = await client.from("cited_references").update({ refreshes: 0 }).eq("message_id", messageId);
    expect(reset.error).toMatchObject(notFound("cited_references"));
    const inCited = await client.schema("cited").from("cited_messages").select("*");
    expect(inCited.status).toBe(406);
    expect(inCited.error).toMatchObject({ code: "PGRST106" });

    expect((await store.listMessages(mallory.id, id))?.[0]?.answer).toEqual({ ...recordedAnswer, messageId });
  });

  it("throws the Data API's refusal for a visitor who is not signed in (the functions are for signed-in users)", async () => {
    const anonymous = createSupabaseServiceStore({
      client: createSupabaseUserClient({
        supabaseUrl: standIn.url,
        supabaseKey: standIn.publishableKey,
        accessToken: standIn.publishableKey,
      }),
      userId: "anonymous",
    });

    const error = await anonymous.listConversations("anonymous").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SupabaseStoreError);
    expect(error).toMatchObject({ code: "42501", status: 401 });
  });

  it("throws, rather than answering null, when the access token is not accepted", async () => {
    const forged = createSupabaseServiceStore({
      client: createSupabaseUserClient({
        supabaseUrl: standIn.url,
        supabaseKey: standIn.publishableKey,
        accessToken: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl",
      }),
      userId: "x",
    });

    await expect(forged.getConversation("x", crypto.randomUUID())).rejects.toMatchObject({
      name: "SupabaseStoreError",
      status: 401,
      code: "PGRST301",
    });
  });

  it("throws when the database is unreachable, with status 0", async () => {
    const unreachable = createSupabaseServiceStore({
      client: createSupabaseUserClient({
        supabaseUrl: "http://127.0.0.1:9",
        supabaseKey: standIn.publishableKey,
        accessToken: "token",
      }),
      userId: "x",
    });

    await expect(unreachable.listConversations("x")).rejects.toMatchObject({
      name: "SupabaseStoreError",
      status: 0,
    });
  });
});

describe("the PostgREST stand-in", () => {
  let database: PGlite;
  let standIn: SupabaseStandIn;

  beforeAll(async () => {
    ({ database, standIn } = await project());
    // Reads every conversation it may: no where clause of its own, so only row-level security filters.
    await database.exec(`
      create function public.test_visible_conversations() returns setof text
      language sql stable security invoker set search_path = ''
      as $$ select title from cited.cited_conversations order by title $$;
      grant execute on function public.test_visible_conversations() to authenticated;
      create function public.test_fail(message text) returns text language plpgsql
      as $$ begin raise exception '%', message using hint = 'a hint'; end $$;
      create table public.test_marks (mark text not null);
      grant select, insert on table public.test_marks to authenticated;
      create function public.test_mark(mark text) returns text language sql volatile
      as $$ insert into public.test_marks values (mark) returning mark $$;
      -- Postgres refuses an insert written in a stable function, not one in a function it calls.
      create function public.test_stable_mark(mark text) returns text language sql stable
      as $$ select public.test_mark(mark) $$;
      grant execute on function public.test_mark(text), public.test_stable_mark(text) to authenticated;`);
  });

  const clientOf = (accessToken: string) =>
    createSupabaseUserClient({ supabaseUrl: standIn.url, supabaseKey: standIn.publishableKey, accessToken });

  it("runs functions as the signed-in user, so row-level security filters what they read", async () => {
    const carol = await signIn(standIn, "carol@example.test");
    const dave = await signIn(standIn, "dave@example.test");
    await storeOf(standIn, carol).createConversation(carol.id, "Carol's");
    await storeOf(standIn, dave).createConversation(dave.id, "Dave's");

    expect((await clientOf(carol.accessToken).rpc("test_visible_conversations")).data).toEqual(["Carol's"]);
    expect((await clientOf(dave.accessToken).rpc("test_visible_conversations")).data).toEqual(["Dave's"]);
  });

  it("answers PostgREST's errors: an unknown function, wrong arguments, a raised exception", async () => {
    const erin = await signIn(standIn, "erin@example.test");
    const client = clientOf(erin.accessToken);

    const unknown = await client.rpc("no_such_function", { a: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: "PGRST202" });
    const wrongArguments = await client.rpc("cited_get_conversation", { id: crypto.randomUUID() });
    expect(wrongArguments.error?.code).toBe("PGRST202");
    const raised = await client.rpc("test_fail", { message: "broken" });
    expect(raised.status).toBe(400);
    expect(raised.error).toMatchObject({ code: "P0001", message: "broken", hint: "a hint", details: null });
    const badUuid = await client.rpc("cited_get_conversation", { conversation: "not-a-uuid" });
    expect(badUuid.status).toBe(400);
    expect(badUuid.error?.code).toBe("22P02");
  });

  it("runs STABLE and IMMUTABLE functions in a read-only transaction, as PostgREST does", async () => {
    const frida = await signIn(standIn, "frida@example.test");
    const client = clientOf(frida.accessToken);
    const mark = `mark-${crypto.randomUUID()}`;

    const stable = await client.rpc("test_stable_mark", { mark });
    expect(stable.status).toBe(405);
    expect(stable.error?.code).toBe("25006");
    expect((await client.rpc("test_mark", { mark })).data).toBe(mark);
    const { rows } = await database.query("select mark from public.test_marks where mark = $1", [mark]);
    expect(rows).toEqual([{ mark }]);
  });

  it("says plainly what it does not cover instead of pretending", async () => {
    const response = await fetch(`${standIn.url}/rest/v1/test_marks?select=*`, {
      headers: { apikey: standIn.publishableKey },
    });

    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ code: "STANDIN" });
  });
});

describe("the SQL the SDK ships for the Supabase store", () => {
  it.each([
    ["private-tables.sql", "20261124015000_cited_private_tables.sql"],
    ["store-functions.sql", "20261124020000_cited_store_functions.sql"],
  ])("%s is the migration %s, word for word", (file, migration) => {
    const shipped = readFileSync(new URL(`./sql/${file}`, import.meta.url), "utf8");

    expect(shipped).toBe(readFileSync(new URL(`migrations/${migration}`, supabaseFolder), "utf8"));
  });
});
