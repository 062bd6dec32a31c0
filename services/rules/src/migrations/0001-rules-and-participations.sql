
      CREATE TABLE rules (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL CHECK (name = lower(name)),
        coin_value numeric NOT NULL CHECK (coin_value > 0 AND scale(coin_value) <= 2),
        condition text NOT NULL,
        max_participants integer NOT NULL CHECK (max_participants >= 1),
        participants integer NOT NULL DEFAULT 0
          CHECK (participants >= 0 AND participants <= max_participants),
        status text NOT NULL CHECK (status IN ('active', 'inactive')),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (partner_id, name)
      );
CREATE INDEX rules_partner_listing ON rules (partner_id, created_at DESC, id DESC);

      CREATE TABLE participations (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        rule_id uuid NOT NULL REFERENCES rules (id),
        user_id uuid NOT NULL,
        coins numeric NOT NULL CHECK (coins > 0),
        status text NOT NULL CHECK (status IN ('pending', 'paid')),
        ledger_entry_id uuid,
        coins_ledger jsonb,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        paid_at timestamptz,
        UNIQUE (rule_id, user_id),
        CHECK ((status = 'paid') = (ledger_entry_id IS NOT NULL AND coins_ledger IS NOT NULL))
      );
CREATE INDEX participations_due ON participations (next_attempt_at) WHERE status = 'pending';

      CREATE TABLE reward_keys (
        partner_id uuid NOT NULL,
        idempotency_key text NOT NULL,
        rule_name text NOT NULL,
        user_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (partner_id, idempotency_key)
      );
