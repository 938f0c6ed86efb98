/** The SQL of the ServiceStore tables; `service-store.sql` beside it is this text for schema `public`. */

/** Tables, in creation order; `migrate` and the `.sql` file both come from here. */
export const serviceStoreTables = ["cited_conversations", "cited_messages", "cited_references"] as const;

/**
 * The statements that create the ServiceStore tables in `schema` (idempotent: `if not exists`).
 * `user_id` is text so any auth system's ids fit (Supabase: compare with `auth.uid()::text`).
 *
 * @example
 * for (const statement of serviceStoreStatements("cited")) await client.query(statement);
 */
export function serviceStoreStatements(schema = "public"): string[] {
  const table = (name: (typeof serviceStoreTables)[number]) => `${quoteIdentifier(schema)}.${name}`;
  return [
    ...(schema === "public" ? [] : [`create schema if not exists ${quoteIdentifier(schema)}`]),
    // Orders conversations by activity: timestamps can tie (PGlite's clock has millisecond steps).
    `create sequence if not exists ${activitySequence(schema)}`,
    `create table if not exists ${table("cited_conversations")} (
  id uuid primary key,
  user_id text not null,
  title text,
  activity bigint not null default ${nextActivity(schema)},
  created_at timestamptz not null default clock_timestamp(),
  updated_at timestamptz not null default clock_timestamp()
)`,
    `create index if not exists cited_conversations_by_user
  on ${table("cited_conversations")} (user_id, activity desc)`,
    `create table if not exists ${table("cited_messages")} (
  id text primary key,
  conversation_id uuid not null references ${table("cited_conversations")} (id) on delete cascade,
  user_id text not null,
  position bigint generated always as identity,
  role text not null check (role in ('user', 'assistant')),
  content text not null,
  answer jsonb,
  partial boolean not null default false,
  created_at timestamptz not null default clock_timestamp()
)`,
    `create index if not exists cited_messages_by_conversation
  on ${table("cited_messages")} (conversation_id, position)`,
    `create table if not exists ${table("cited_references")} (
  message_id text not null references ${table("cited_messages")} (id) on delete cascade,
  reference_id text not null,
  user_id text not null,
  pdf_token text,
  pdf_expires_at timestamptz,
  refreshes integer not null default 0,
  primary key (message_id, reference_id)
)`,
    `create index if not exists cited_references_by_user on ${table("cited_references")} (user_id)`,
    // Locked by default: on Supabase the tables stay unreachable through the Data API until the
    // policies by user_id are added. The table owner (the SQL store's connection) is not affected.
    ...serviceStoreTables.map((name) => `alter table ${table(name)} enable row level security`),
  ];
}

/**
 * The whole migration as one script, as host teams copy it into `supabase/migrations`.
 *
 * @example
 * writeFileSync("supabase/migrations/20260101000000_cited.sql", serviceStoreSql());
 */
export function serviceStoreSql(schema = "public"): string {
  const header = [
    "-- Cited SDK: the ServiceStore tables (conversations, messages with their answer state,",
    "-- per-user ownership of references and their PDF tokens). Generated from",
    "-- sdk/server/sql/service-store-schema.ts. Row-level security is on with no policy: add",
    "-- policies by user_id before exposing the tables to signed-in users (e.g. Supabase's Data API).",
  ].join("\n");
  return `${header}\n\n${serviceStoreStatements(schema)
    .map((statement) => `${statement};\n`)
    .join("\n")}`;
}

function activitySequence(schema: string): string {
  return `${quoteIdentifier(schema)}.cited_conversations_activity`;
}

/**
 * The SQL expression that takes the next conversation activity number.
 *
 * @example
 * `update cited_conversations set activity = ${nextActivity("public")} where id = $1`
 */
export function nextActivity(schema = "public"): string {
  return `nextval('${activitySequence(schema).replaceAll("'", "''")}')`;
}

/**
 * A Postgres identifier, quoted.
 *
 * @example
 * quoteIdentifier('my "app"'); // "\"my \"\"app\"\"\""
 */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The migration for schema `public`: the text of `service-store.sql`. */
export const serviceStoreMigrationSql: string = serviceStoreSql();
