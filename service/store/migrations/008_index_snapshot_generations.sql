-- A snapshot is written part by part outside any transaction, as a new generation; a short transaction then
-- makes it the current one, and the older generations' parts are deleted after it. Requests that need the
-- database no longer wait for seconds of parts (59 MB at 100k passages) inside one transaction.
-- Parts reference the assistant rather than the snapshot row: a first snapshot's parts precede that row.
create sequence index_snapshot_generation;
alter table index_snapshots add column generation bigint not null default 0;
alter table index_snapshot_parts drop constraint index_snapshot_parts_assistant_id_fkey;
alter table index_snapshot_parts drop constraint index_snapshot_parts_pkey;
alter table index_snapshot_parts add column generation bigint not null default 0;
alter table index_snapshot_parts add primary key (assistant_id, generation, part);
alter table index_snapshot_parts
  add foreign key (assistant_id) references assistants (id) on delete cascade;
alter table index_snapshots alter column generation drop default;
alter table index_snapshot_parts alter column generation drop default;
