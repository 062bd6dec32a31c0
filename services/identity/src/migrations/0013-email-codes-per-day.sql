-- The codes mailed to an account user in a rolling day (sign-up's included): resend-code sends at
-- most EMAIL_CODE_MAX_PER_DAY, so the endpoint cannot mail one address without end. The previous
-- release neither reads nor writes these columns (expand only).
ALTER TABLE account_users ADD COLUMN email_codes_sent integer NOT NULL DEFAULT 0;
ALTER TABLE account_users ADD COLUMN email_codes_window_started_at timestamptz;
