-- Single-use links that lift an e-mail's login throttles (login_client_failures, login_failures):
-- only the token's SHA-256 is stored. New table, nothing of the previous release changes.
CREATE TABLE login_unlock_tokens (
  token_hash text PRIMARY KEY,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX login_unlock_tokens_email ON login_unlock_tokens (email, created_at);
