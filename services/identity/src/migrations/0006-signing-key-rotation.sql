-- Signing keys rotate: the active one is the newest activated and not retired; a retired one is
-- published until verify_until. Private keys move to private_key_encrypted (identity encrypts the
-- rows 1.0.0 wrote in plain text at start, under KEY_ENCRYPTION_KEY); private_jwk stays, emptied.
ALTER TABLE signing_keys ALTER COLUMN private_jwk DROP NOT NULL;
ALTER TABLE signing_keys ADD COLUMN private_key_encrypted text;
ALTER TABLE signing_keys ADD COLUMN activated_at timestamptz;
ALTER TABLE signing_keys ADD COLUMN retired_at timestamptz;
ALTER TABLE signing_keys ADD COLUMN verify_until timestamptz;
