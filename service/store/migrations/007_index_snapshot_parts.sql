-- A snapshot is kept in 4 MB parts, written and read one statement each: PGlite's WASM heap grows to hold
-- a statement's whole value and never shrinks (a 59 MB snapshot in one value kept ~400 MB resident).
-- Existing snapshots are dropped: each index is rebuilt once from its passages and saved in parts.
delete from index_snapshots;
alter table index_snapshots drop column data;
create table index_snapshot_parts (
  assistant_id text not null references index_snapshots (assistant_id) on delete cascade,
  part integer not null,
  data bytea not null,
  primary key (assistant_id, part)
);
alter table index_snapshot_parts alter column data set storage external;
