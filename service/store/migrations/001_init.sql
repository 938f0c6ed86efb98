-- The service's tables: assistants and their sources, passages with positions, keys, sessions, tokens.
create table assistants (
  id text primary key,
  name text not null,
  created_at timestamptz not null default now()
);

create table datasources (
  id text primary key,
  assistant_id text not null references assistants (id) on delete cascade,
  name text not null,
  url text,
  created_at timestamptz not null default now(),
  unique (assistant_id, name)
);

create table documents (
  id text primary key,
  assistant_id text not null references assistants (id) on delete cascade,
  datasource_id text not null references datasources (id) on delete cascade,
  file_name text not null,
  sha256 text not null,
  bytes bigint not null,
  status text not null check (status in ('queued', 'processing', 'ready', 'failed')),
  error text,
  warnings jsonb not null default '[]',
  title text,
  pages integer,
  pages_done integer,
  passages integer,
  attempts integer not null default 0,
  lease_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (datasource_id, sha256)
);
create index documents_queue on documents (status, created_at);
create index documents_assistant on documents (assistant_id);

create table passages (
  id text primary key,
  document_id text not null references documents (id) on delete cascade,
  assistant_id text not null,
  datasource_id text not null,
  ordinal integer not null,
  kind text not null,
  text text not null,
  heading text not null,
  title text not null,
  sentences jsonb not null,
  evidence jsonb not null,
  page_start integer,
  page_end integer
);
create index passages_document on passages (document_id, ordinal);
create index passages_assistant on passages (assistant_id);

create table api_keys (
  id text primary key,
  assistant_id text not null references assistants (id) on delete cascade,
  name text,
  scopes text[] not null,
  prefix text not null,
  hash text not null unique,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index api_keys_assistant on api_keys (assistant_id);

create table sessions (
  assistant_id text not null references assistants (id) on delete cascade,
  external_session text not null,
  id_user text not null,
  created_at timestamptz not null default now(),
  primary key (assistant_id, external_session)
);

create table turns (
  id text primary key,
  assistant_id text not null,
  external_session text not null,
  ordinal integer not null,
  question text not null,
  search_query text not null,
  answer text not null,
  refusal boolean not null,
  passage_ids jsonb not null,
  created_at timestamptz not null default now(),
  foreign key (assistant_id, external_session) references sessions (assistant_id, external_session) on delete cascade,
  unique (assistant_id, external_session, ordinal)
);

create table pdf_refreshes (
  token_id text primary key,
  refreshed_at timestamptz not null default now()
);

create table index_snapshots (
  assistant_id text primary key references assistants (id) on delete cascade,
  document_ids jsonb not null,
  data bytea not null,
  created_at timestamptz not null default now()
);
