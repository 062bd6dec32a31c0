
      CREATE TABLE standings (
        partner_id uuid NOT NULL,
        board text NOT NULL,
        user_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
        amount numeric(24, 2) NOT NULL,
        reached_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (partner_id, board, user_id)
      );
CREATE INDEX standings_rank ON standings (partner_id, board, amount DESC, reached_at, user_id);

      CREATE TABLE users (
        partner_id uuid NOT NULL,
        user_id uuid NOT NULL,
        id uuid NOT NULL,
        user_data jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (partner_id, user_id)
      );
