-- Snapshots are read in slices; uncompressed out-of-line storage lets Postgres fetch only a slice's chunks
-- instead of decompressing the whole value for each one (PGlite kept ~100 MB more for a 59 MB snapshot).
-- Applies to snapshots written from now on; every index change rewrites its snapshot.
alter table index_snapshots alter column data set storage external;
