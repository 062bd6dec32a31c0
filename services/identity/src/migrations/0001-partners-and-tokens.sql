
      CREATE TABLE partners (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL UNIQUE,
        application_name text NOT NULL,
        client_id text NOT NULL UNIQUE,
        redirect_url text NOT NULL,
        web_redirect_url text NOT NULL,
        mobile_redirect_url text NOT NULL,
        email text NOT NULL UNIQUE CHECK (email = lower(email)),
        partner_name text NOT NULL,
        user_details_url text NOT NULL,
        password_hash text NOT NULL,
        webhook_url text,
        webhook_secret text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        family_id uuid NOT NULL,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_partner ON refresh_tokens (partner_id);

      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL,
        prefix text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
CREATE INDEX api_keys_partner ON api_keys (partner_id, created_at);

      CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        private_jwk jsonb NOT NULL,
        public_jwk jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE login_failures (
        email text PRIMARY KEY,
        failures integer NOT NULL,
        window_started_at timestamptz NOT NULL
      );
