
      CREATE TABLE deliveries (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        event_id uuid NOT NULL UNIQUE,
        event_type text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL,
        next_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_partner ON deliveries (partner_id, created_at DESC, id);

      CREATE TABLE delivery_attempts (
        delivery_id uuid NOT NULL REFERENCES deliveries (id),
        attempt integer NOT NULL,
        url text,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        status_code integer,
        error text,
        duration_ms integer,
        PRIMARY KEY (delivery_id, attempt)
      );

      CREATE TABLE disabled_endpoints (
        partner_id uuid NOT NULL,
        url text NOT NULL,
        disabled_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (partner_id, url)
      );
