
      CREATE TABLE account_users (
        id uuid PRIMARY KEY,
        fullname text NOT NULL,
        tag text NOT NULL,
        email text NOT NULL CHECK (email = lower(email)),
        password_hash text NOT NULL,
        phone text NOT NULL,
        country_code text NOT NULL,
        is_adult boolean NOT NULL,
        date_of_birth date NOT NULL,
        email_verified_at timestamptz,
        email_code_hash text,
        email_code_expires_at timestamptz,
        email_code_attempts integer NOT NULL DEFAULT 0,
        email_code_sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
CREATE UNIQUE INDEX account_users_tag_key ON account_users (lower(tag));
CREATE UNIQUE INDEX account_users_email_key ON account_users (email);

      CREATE TABLE mail_outbox (
        id uuid PRIMARY KEY,
        recipient text NOT NULL,
        subject text NOT NULL,
        body text,
        discard_after timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        failed_at timestamptz
      );
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;
