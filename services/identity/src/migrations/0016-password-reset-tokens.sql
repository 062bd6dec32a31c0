-- Single-use links that set a member's password: only the token's SHA-256 is stored. New table,
-- nothing of the previous release changes.
CREATE TABLE password_reset_tokens (
  token_hash text PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_reset_tokens_member ON password_reset_tokens (member_id, created_at);
