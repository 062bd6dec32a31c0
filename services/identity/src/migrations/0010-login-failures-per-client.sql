-- Failed logins are counted per (e-mail, client address) as well: only that pair is locked out, so
-- a stranger guessing a partner's password locks out itself, never the partner. The per-e-mail
-- table login_failures only adds delay since (its lock_level is no longer read). The previous
-- release keeps using login_failures as it did (expand only).
CREATE TABLE login_client_failures (
  email text NOT NULL,
  client text NOT NULL,
  failures integer NOT NULL,
  window_started_at timestamptz NOT NULL,
  lock_level integer NOT NULL DEFAULT 0,
  PRIMARY KEY (email, client)
);
