-- Per-key request counts in fixed one-minute windows, shared by every service process; losing them
-- in a crash only forgives a minute of requests, so the table skips the write-ahead log.
create unlogged table rate_limit_windows (
  key text primary key,
  window_start timestamptz not null,
  used integer not null
);
