-- Teams: a partner has members, each with their own login and a role (docs/partners/teams-and-roles.md).
-- Every existing partner becomes one member, its owner, with the partner's e-mail and password hash,
-- so today's login keeps working unchanged. partners.email and password_hash stay and are still
-- written at registration: a replica of the previous release, which reads them alone, keeps working
-- during a rolling update (expand only); a partner it registers meanwhile gets its owner member at
-- its first login here (domain/team/members.ts).
CREATE TABLE members (
  id uuid PRIMARY KEY,
  partner_id uuid NOT NULL REFERENCES partners (partner_id),
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'finance', 'support', 'viewer')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX members_partner ON members (partner_id, created_at);
INSERT INTO members (id, partner_id, email, password_hash, role, created_at) SELECT gen_random_uuid(), partner_id, email, password_hash, 'owner', created_at FROM partners;

-- An invitation: its link's token is stored hashed (sha256), works once and until expires_at.
CREATE TABLE member_invites (
  id uuid PRIMARY KEY,
  partner_id uuid NOT NULL REFERENCES partners (partner_id),
  email text NOT NULL CHECK (email = lower(email)),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'finance', 'support', 'viewer')),
  token_hash text NOT NULL UNIQUE,
  invited_by uuid,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX member_invites_open ON member_invites (partner_id, created_at) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- A session belongs to a member: refresh tokens name it (NULL: issued before teams, by the owner).
ALTER TABLE refresh_tokens ADD COLUMN member_id uuid;

-- The audit log: append-only. The service role may INSERT and SELECT, never UPDATE, DELETE or
-- TRUNCATE: the default privileges grant those on every new table, so they are revoked here from
-- every role but the owner, and again by db-roles at every run (libs/db/src/database-roles.ts
-- reads the table's comment). `id` is the event id of a change recorded by another service, so a
-- redelivered event adds no second entry; `seq` orders the log and is the list's cursor.
CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  partner_id uuid NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  actor_member_id uuid,
  actor_email text,
  actor_api_key_id uuid,
  client_ip text,
  action text NOT NULL,
  summary text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_partner ON audit_log (partner_id, seq);
CREATE INDEX audit_log_partner_at ON audit_log (partner_id, at);
COMMENT ON TABLE audit_log IS 'append-only: no UPDATE, DELETE or TRUNCATE for the service role';
DO $$
DECLARE grantee text;
BEGIN
  FOR grantee IN
    SELECT DISTINCT g.grantee FROM information_schema.role_table_grants g
     WHERE g.table_schema = 'public' AND g.table_name = 'audit_log'
       AND g.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE') AND g.grantee <> current_user
  LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM %I', grantee);
  END LOOP;
END $$;
