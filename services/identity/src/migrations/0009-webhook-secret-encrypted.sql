-- Webhook signing secrets encrypted under the key-encryption key (security/webhook-secrets.ts). The
-- key is outside the database, so SQL cannot encrypt the existing secrets: identity does at start,
-- idempotently. webhook_secret stays, emptied as they are encrypted: a replica of the previous
-- release, which reads and writes it alone, keeps working during a rolling update (expand only), and
-- keys:decrypt-for-rollback fills it again before a rollback.
ALTER TABLE partners ADD COLUMN webhook_secret_encrypted text;
