-- Cited SDK: the ServiceStore tables (conversations, messages with their answer state,
-- per-user ownership of references and their PDF tokens). Generated from
-- sdk/server/sql/service-store-schema.ts. Row-level security is on with no policy: add
-- policies by user_id before exposing the tables to signed-in users (e.g. Supabase's Data API).

create sequence if not exists "public".cited_conversations_activity;

create table if not exists "public".cited_conversations (
  id uuid primary key,
  user_id text not null,
  title text,
  activity bigint not null default nextval('"public".cited_conversations_activity'),
  created_at timestamptz not null default clock_timestamp(),
  updated_at timestamptz not null default clock_timestamp()
);

create index if not exists cited_conversations_by_user
  on "public".cited_conversations (user_id, activity desc);

create table if not exists "public".cited_messages (
  id text primary key,
  conversation_id uuid not null references "public".cited_conversations (id) on delete cascade,
  user_id text not null,
  position bigint generated always as identity,
  role text not null check (role in ('user', 'assistant')),
  content text not null,
  answer jsonb,
  partial boolean not null default false,
  created_at timestamptz not null default clock_timestamp()
);

create index if not exists cited_messages_by_conversation
  on "public".cited_messages (conversation_id, position);

create table if not exists "public".cited_references (
  message_id text not null references "public".cited_messages (id) on delete cascade,
  reference_id text not null,
  user_id text not null,
  pdf_token text,
  pdf_expires_at timestamptz,
  refreshes integer not null default 0,
  primary key (message_id, reference_id)
);

create index if not exists cited_references_by_user on "public".cited_references (user_id);

alter table "public".cited_conversations enable row level security;

alter table "public".cited_messages enable row level security;

alter table "public".cited_references enable row level security;
