-- Every committed change to documents (and every deleted assistant) is announced on the channel
-- cka_changes, so each service process sharing this database updates its index and wakes its waiters.
-- The function bodies stay on one line: migrate.ts splits statements at semicolons that end a line.
create or replace function notify_document_change() returns trigger language plpgsql as $$ begin perform pg_notify('cka_changes', json_build_object('assistant', case when tg_op = 'DELETE' then old.assistant_id else new.assistant_id end, 'document', case when tg_op = 'DELETE' then old.id else new.id end, 'status', case when tg_op = 'DELETE' then 'deleted' else new.status end)::text); return null; end $$;
create trigger documents_changed after insert or update or delete on documents for each row execute function notify_document_change();
create or replace function notify_assistant_deleted() returns trigger language plpgsql as $$ begin perform pg_notify('cka_changes', json_build_object('assistant', old.id, 'document', null, 'status', 'deleted')::text); return null; end $$;
create trigger assistants_deleted after delete on assistants for each row execute function notify_assistant_deleted();
