
      CREATE TABLE tiers (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL,
        rank integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (partner_id, id)
      );
CREATE UNIQUE INDEX tiers_partner_name ON tiers (partner_id, lower(name));

      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        partner_id uuid NOT NULL,
        user_id uuid NOT NULL,
        user_data jsonb,
        tier_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (partner_id, user_id),
        FOREIGN KEY (partner_id, tier_id) REFERENCES tiers (partner_id, id)
      );

      CREATE TABLE onboarding_requests (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        users json,
        user_count integer NOT NULL CHECK (user_count > 0),
        next_index integer NOT NULL DEFAULT 0,
        failed_count integer NOT NULL DEFAULT 0,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      );
CREATE INDEX onboarding_requests_pending ON onboarding_requests (created_at) WHERE status = 'pending';

      CREATE TABLE onboarding_failures (
        request_id uuid NOT NULL REFERENCES onboarding_requests (id),
        position integer NOT NULL,
        user_id text NOT NULL,
        reason text NOT NULL,
        PRIMARY KEY (request_id, position)
      );
