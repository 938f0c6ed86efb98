-- Cited SDK: the functions the Supabase ServiceStore (sdk/adapters/supabase) calls through the
-- Data API (`supabase.rpc(...)`, POST /rest/v1/rpc/<name>), one per store method. Each runs as
-- the caller (security invoker), so the row-level security policies of cited_row_level_security
-- decide what it may read and write in the tables, which cited_private_tables moved to schema
-- `cited`, out of the Data API's reach; the user is always auth.uid() from the caller's access
-- token, never an argument. Each does what the same method of the SQL store
-- (sdk/server/sql-service-store.ts) does; titles, message ids and the PDF tokens of an answer's
-- references are worked out in TypeScript and passed in, as the SQL store does. Results are jsonb
-- rows with the tables' column names, null (or false) when the row is not the caller's.
-- Argument names differ from column names, so no reference inside a function is ambiguous.

-- A new, empty conversation of the caller.
create or replace function public.cited_create_conversation(new_title text default null)
returns jsonb
language sql volatile security invoker set search_path = ''
as $$
  insert into cited.cited_conversations as c (id, user_id, title)
  values (gen_random_uuid(), (select auth.uid())::text, new_title)
  returning to_jsonb(c) - 'user_id' - 'activity'
$$;

-- The caller's conversations as one array, most recently active first.
create or replace function public.cited_list_conversations()
returns jsonb
language sql stable security invoker set search_path = ''
as $$
  select coalesce(jsonb_agg(to_jsonb(c) - 'user_id' - 'activity' order by c.activity desc), '[]'::jsonb)
  from cited.cited_conversations c
  where c.user_id = (select auth.uid())::text
$$;

create or replace function public.cited_get_conversation(conversation uuid)
returns jsonb
language sql stable security invoker set search_path = ''
as $$
  select to_jsonb(c) - 'user_id' - 'activity'
  from cited.cited_conversations c
  where c.id = conversation and c.user_id = (select auth.uid())::text
$$;

-- Neither updated_at nor activity: a new title is not activity, so the list keeps its order.
-- The title arrives trimmed and checked (1 to 200 characters) by the store.
create or replace function public.cited_rename_conversation(conversation uuid, new_title text)
returns jsonb
language sql volatile security invoker set search_path = ''
as $$
  update cited.cited_conversations c set title = new_title
  where c.id = conversation and c.user_id = (select auth.uid())::text
  returning to_jsonb(c) - 'user_id' - 'activity'
$$;

-- Its messages and their reference rows go with it: both foreign keys are "on delete cascade".
create or replace function public.cited_delete_conversation(conversation uuid)
returns boolean
language sql volatile security invoker set search_path = ''
as $$
  with deleted as (
    delete from cited.cited_conversations c
    where c.id = conversation and c.user_id = (select auth.uid())::text
    returning 1
  )
  select exists (select from deleted)
$$;

-- Appends the caller's question (`message` is its new id); the first question titles an untitled
-- conversation (`question_title`, from the question by the store's titleFrom). Two statements:
-- written as one (an update in a with clause, as the SQL store does), the message's insert policy
-- refused it inside a language sql function.
create or replace function public.cited_add_user_message(
  conversation uuid,
  message text,
  question text,
  question_title text
)
returns jsonb
language plpgsql volatile security invoker set search_path = ''
as $$
declare
  caller text := (select auth.uid())::text;
  saved jsonb;
begin
  update cited.cited_conversations c
  set title = coalesce(c.title, question_title),
      updated_at = clock_timestamp(),
      activity = nextval('cited.cited_conversations_activity')
  where c.id = conversation and c.user_id = caller;
  if not found then
    return null;
  end if;

  insert into cited.cited_messages as m (id, conversation_id, user_id, role, content)
  values (message, conversation, caller, 'user', question)
  returning to_jsonb(m) - 'user_id' - 'position' into saved;
  return saved;
end
$$;

-- Appends the answer `message` or replaces it in place, only within the same conversation and
-- only over an answer; then records the caller's ownership of each cited reference
-- (`cited`: [{ reference_id, pdf_token, pdf_expires_at }]), keeping a token already replaced.
-- Separate statements, so the references see the message written just before them.
create or replace function public.cited_save_answer(
  conversation uuid,
  message text,
  answer_text text,
  answer_state jsonb,
  is_partial boolean,
  cited jsonb
)
returns jsonb
language plpgsql volatile security invoker set search_path = ''
as $$
declare
  caller text := (select auth.uid())::text;
  saved jsonb;
begin
  update cited.cited_conversations c
  set updated_at = clock_timestamp(), activity = nextval('cited.cited_conversations_activity')
  where c.id = conversation and c.user_id = caller;
  if not found then
    return null;
  end if;

  -- Message ids are unique per user, so the row in conflict is always the caller's own: another
  -- user's message under the same id neither blocks this answer nor is touched by it. One of the
  -- caller's in another conversation, or a question, is skipped rather than overwritten.
  insert into cited.cited_messages as m (id, conversation_id, user_id, role, content, answer, partial)
  values (message, conversation, caller, 'assistant', answer_text, answer_state, is_partial)
  on conflict (id, user_id) do update
    set content = excluded.content, answer = excluded.answer, partial = excluded.partial
    where m.conversation_id = excluded.conversation_id and m.role = 'assistant'
  returning to_jsonb(m) - 'user_id' - 'position' into saved;
  if saved is null then
    return null;
  end if;

  insert into cited.cited_references (message_id, reference_id, user_id, pdf_token, pdf_expires_at)
  select message, r.reference_id, caller, r.pdf_token, r.pdf_expires_at
  from jsonb_to_recordset(cited) as r (reference_id text, pdf_token text, pdf_expires_at timestamptz)
  on conflict (message_id, user_id, reference_id) do nothing;
  return saved;
end
$$;

-- The conversation's messages in the order they were added; null when it is not the caller's.
create or replace function public.cited_list_messages(conversation uuid)
returns jsonb
language sql stable security invoker set search_path = ''
as $$
  select coalesce(
    (select jsonb_agg(to_jsonb(m) - 'user_id' - 'position' order by m.position)
     from cited.cited_messages m where m.conversation_id = c.id),
    '[]'::jsonb
  )
  from cited.cited_conversations c
  where c.id = conversation and c.user_id = (select auth.uid())::text
$$;

-- A reference of an answer with its current PDF token, only if the caller owns the answer.
create or replace function public.cited_find_reference(message text, reference text)
returns jsonb
language sql stable security invoker set search_path = ''
as $$
  select jsonb_build_object(
    'message_id', r.message_id,
    'conversation_id', m.conversation_id,
    'reference', m.answer -> 'references' -> r.reference_id,
    'pdf_token', r.pdf_token,
    'pdf_expires_at', r.pdf_expires_at,
    'refreshes', r.refreshes
  )
  from cited.cited_references r
  join cited.cited_messages m on m.id = r.message_id and m.user_id = r.user_id
  where r.message_id = message and r.reference_id = reference
    and r.user_id = (select auth.uid())::text and m.user_id = (select auth.uid())::text
$$;

-- Stores the token a refresh returned; false when the caller does not own the reference.
create or replace function public.cited_replace_reference_token(
  message text,
  reference text,
  token text,
  expires_at timestamptz
)
returns boolean
language sql volatile security invoker set search_path = ''
as $$
  with updated as (
    update cited.cited_references r
    set pdf_token = token, pdf_expires_at = expires_at, refreshes = r.refreshes + 1
    where r.message_id = message and r.reference_id = reference
      and r.user_id = (select auth.uid())::text
    returning 1
  )
  select exists (select from updated)
$$;

-- Only signed-in users call these: Supabase's default privileges would also let anon (and every
-- role, through public) execute a new function in public.
revoke all on function
  public.cited_create_conversation(text),
  public.cited_list_conversations(),
  public.cited_get_conversation(uuid),
  public.cited_rename_conversation(uuid, text),
  public.cited_delete_conversation(uuid),
  public.cited_add_user_message(uuid, text, text, text),
  public.cited_save_answer(uuid, text, text, jsonb, boolean, jsonb),
  public.cited_list_messages(uuid),
  public.cited_find_reference(text, text),
  public.cited_replace_reference_token(text, text, text, timestamptz)
from public, anon, service_role;

grant execute on function
  public.cited_create_conversation(text),
  public.cited_list_conversations(),
  public.cited_get_conversation(uuid),
  public.cited_rename_conversation(uuid, text),
  public.cited_delete_conversation(uuid),
  public.cited_add_user_message(uuid, text, text, text),
  public.cited_save_answer(uuid, text, text, jsonb, boolean, jsonb),
  public.cited_list_messages(uuid),
  public.cited_find_reference(text, text),
  public.cited_replace_reference_token(text, text, text, timestamptz)
to authenticated;
