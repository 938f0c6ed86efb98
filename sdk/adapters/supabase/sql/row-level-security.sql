-- Cited SDK: row-level security for the ServiceStore tables. Each signed-in Supabase user
-- (role `authenticated`, id from auth.uid()) reads and writes only their own rows, so a bug in
-- the host's handler cannot show one user another's conversations, messages or references;
-- `anon` gets nothing. Runs after the tables' migration (cited_service_store). Rows keep
-- user_id as text, so policies compare it with auth.uid()::text.

-- Ownership runs down the tree for every role, service_role included: a message belongs to
-- the user of its conversation, a reference to the user of its message. Being constraints,
-- they also hold for rows written in the same statement as their parent (the store saves an
-- answer and its references in one), which a policy cannot see yet.
alter table public.cited_conversations
  add constraint cited_conversations_id_user_id_key unique (id, user_id);
alter table public.cited_messages
  add constraint cited_messages_id_user_id_key unique (id, user_id),
  add constraint cited_messages_conversation_owner_fkey foreign key (conversation_id, user_id)
    references public.cited_conversations (id, user_id) on delete cascade;
alter table public.cited_references
  add constraint cited_references_message_owner_fkey foreign key (message_id, user_id)
    references public.cited_messages (id, user_id) on delete cascade;

-- Helpers live outside the schemas the Data API exposes, so they cannot be called over HTTP.
create schema if not exists private;
grant usage on schema private to authenticated;

-- security definer: it reads the conversation as the table's owner, so the check neither
-- depends on the conversations' own policies nor re-runs them for each message.
create or replace function private.owns_conversation(conversation uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select from public.cited_conversations
    where id = conversation and user_id = (select auth.uid())::text
  )
$$;

revoke all on function private.owns_conversation(uuid) from public, anon;
grant execute on function private.owns_conversation(uuid) to authenticated;

-- Supabase grants every API role everything on new tables in public; narrow that to what the
-- store needs (truncate, for one, ignores row-level security).
revoke all on table public.cited_conversations, public.cited_messages, public.cited_references
  from anon, authenticated;
revoke all on sequence public.cited_conversations_activity, public.cited_messages_position_seq
  from anon, authenticated;
grant select, insert, update, delete
  on table public.cited_conversations, public.cited_messages, public.cited_references
  to authenticated;
-- A new conversation and each new message take their order from this sequence. (A message's
-- position is an identity column, whose sequence needs no grant.)
grant usage on sequence public.cited_conversations_activity to authenticated;

-- The policies look rows up by user_id; messages had no index on it.
create index if not exists cited_messages_by_user on public.cited_messages (user_id);

-- `(select auth.uid())` is evaluated once per statement rather than once per row.
create policy "Users read their own conversations"
  on public.cited_conversations for select to authenticated
  using (user_id = (select auth.uid())::text);

create policy "Users start conversations of their own"
  on public.cited_conversations for insert to authenticated
  with check (user_id = (select auth.uid())::text);

create policy "Users update their own conversations"
  on public.cited_conversations for update to authenticated
  using (user_id = (select auth.uid())::text)
  with check (user_id = (select auth.uid())::text);

create policy "Users delete their own conversations"
  on public.cited_conversations for delete to authenticated
  using (user_id = (select auth.uid())::text);

create policy "Users read their own messages"
  on public.cited_messages for select to authenticated
  using (user_id = (select auth.uid())::text);

create policy "Users add messages only to their own conversations"
  on public.cited_messages for insert to authenticated
  with check (user_id = (select auth.uid())::text and private.owns_conversation(conversation_id));

create policy "Users update their own messages within their own conversations"
  on public.cited_messages for update to authenticated
  using (user_id = (select auth.uid())::text)
  with check (user_id = (select auth.uid())::text and private.owns_conversation(conversation_id));

create policy "Users delete their own messages"
  on public.cited_messages for delete to authenticated
  using (user_id = (select auth.uid())::text);

create policy "Users read their own references"
  on public.cited_references for select to authenticated
  using (user_id = (select auth.uid())::text);

-- The message is the user's own by cited_references_message_owner_fkey: a policy could not see a
-- message written by the same statement.
create policy "Users add references only to their own messages"
  on public.cited_references for insert to authenticated
  with check (user_id = (select auth.uid())::text);

create policy "Users update their own references"
  on public.cited_references for update to authenticated
  using (user_id = (select auth.uid())::text)
  with check (user_id = (select auth.uid())::text);

create policy "Users delete their own references"
  on public.cited_references for delete to authenticated
  using (user_id = (select auth.uid())::text);
