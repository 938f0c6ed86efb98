-- Keys made for a while (the console's trial keys): a key is refused from expires_at on; null never expires.
alter table api_keys add column expires_at timestamptz;
