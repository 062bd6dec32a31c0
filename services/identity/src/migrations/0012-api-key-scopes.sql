-- An API key holds scopes (what it may do) and may expire. Keys made before hold all six scopes,
-- which is what they could do; the previous release inserts keys without naming scopes and gets
-- the same (expand only: the contract checks the names, so no constraint narrows the table).
-- A refresh token keeps when its login's password was entered (auth_time), so a refreshed access
-- token carries it for step-up operations; null for tokens issued before.
ALTER TABLE api_keys
  ADD COLUMN scopes text[] NOT NULL DEFAULT ARRAY['read', 'users', 'rules', 'coins', 'export', 'webhooks'],
  ADD COLUMN expires_at timestamptz;

ALTER TABLE refresh_tokens ADD COLUMN auth_time timestamptz;
