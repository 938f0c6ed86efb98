-- Cited SDK: moves the ServiceStore tables out of the Data API's reach. Supabase's Data API
-- serves the schemas listed in the project's API settings (public by default), so with the
-- tables in public a signed-in user could read and write their own rows directly (PATCH
-- /rest/v1/cited_messages), rewriting the answers, references and PDF tokens that the host
-- takes as written by its server. Schema `cited` is not exposed: the tables are reached only
-- through the store's functions (cited_store_functions), which run as the caller, so the
-- row-level security policies still decide. Runs after cited_row_level_security; the policies,
-- indexes, constraints, grants and identity sequences move with their tables.

create schema if not exists cited;
-- Signed-in users reach the tables through the functions, which run as them; anon gets nothing.
grant usage on schema cited to authenticated;

alter table public.cited_conversations set schema cited;
alter table public.cited_messages set schema cited;
alter table public.cited_references set schema cited;
-- No table owns this sequence, so it moves on its own; the activity default names it by its
-- oid and follows it.
alter sequence public.cited_conversations_activity set schema cited;

-- A message id is unique per user rather than across users. The functions take message ids
-- from their caller, so with one id space a user could save a message under the id the service
-- is about to give another user's answer, and that answer could then not be saved.
alter table cited.cited_references
  drop constraint cited_references_message_id_fkey,
  drop constraint cited_references_message_owner_fkey,
  drop constraint cited_references_pkey;
alter table cited.cited_messages
  drop constraint cited_messages_id_user_id_key,
  drop constraint cited_messages_pkey,
  add constraint cited_messages_pkey primary key (id, user_id);
alter table cited.cited_references
  add constraint cited_references_pkey primary key (message_id, user_id, reference_id),
  add constraint cited_references_message_owner_fkey foreign key (message_id, user_id)
    references cited.cited_messages (id, user_id) on delete cascade;

-- The policies' helper, on the tables' new schema. It repeats what
-- cited_messages_conversation_owner_fkey enforces (a message's conversation belongs to the
-- message's user): it only turns that refusal of a message put into someone else's
-- conversation from 23503 (foreign key) into 42501 (policy), the error of every other refused
-- write. security definer: it reads the conversation as the table's owner, so the check neither
-- depends on the conversations' own policies nor re-runs them for each message.
create or replace function private.owns_conversation(conversation uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select from cited.cited_conversations
    where id = conversation and user_id = (select auth.uid())::text
  )
$$;
