-- When a key last authenticated a public request, for the sharing area's key list; null until its first use.
alter table api_keys add column last_used_at timestamptz;
