-- Rule limits, a validity window and budgets. Expand only: every new column of `rules` is nullable or
-- has a default, and the one new constraint binds only those columns, which the previous release
-- never writes (its rules have no limit, window nor budget, and its claims leave `spent` at 0).
--
-- - `limit_times`/`limit_period`: a limited rule pays a user up to that many times per day, week or
--   month of the partner's time zone (`partner_settings`, UTC when unset). Its rewards are rows of
--   `rule_rewards` (the `participations` of a once-per-user rule keep their one row per rule and
--   user, which the previous release's ON CONFLICT needs); `rule_user_periods` counts a user's rewards
--   in a period, raised only below the limit; `rule_members` says which users took a place under the
--   participant cap.
-- - `budget`/`spent`: the coins a rule may pay in all, and those it paid or is paying, raised by the
--   claim only while it stays within the budget and lowered when a claim is released.
-- - `starts_at`/`ends_at`: outside that window the rule pays nothing.
-- - `reward_keys.reward_id`: the reward a partner's Idempotency-Key made on a limited rule.
--
-- Locking, in every claim and release: the key row, the user's period row, the member row, then the
-- rule's row.
ALTER TABLE rules ADD COLUMN limit_times integer, ADD COLUMN limit_period text, ADD COLUMN budget numeric, ADD COLUMN spent numeric NOT NULL DEFAULT 0, ADD COLUMN starts_at timestamptz, ADD COLUMN ends_at timestamptz;
ALTER TABLE rules ADD CONSTRAINT rules_limits CHECK ((limit_times IS NULL) = (limit_period IS NULL) AND (limit_times IS NULL OR limit_times >= 1) AND (limit_period IS NULL OR limit_period IN ('day', 'week', 'month')) AND (budget IS NULL OR (budget > 0 AND scale(budget) <= 2 AND spent <= budget)) AND spent >= 0 AND (starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at));
CREATE TABLE rule_rewards (
  id uuid PRIMARY KEY,
  partner_id uuid NOT NULL,
  rule_id uuid NOT NULL REFERENCES rules (id),
  user_id uuid NOT NULL,
  coins numeric NOT NULL CHECK (coins > 0),
  period_start timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'paid')),
  ledger_entry_id uuid,
  coins_ledger jsonb,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  parked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  paid_at timestamptz,
  CHECK ((status = 'paid') = (ledger_entry_id IS NOT NULL AND coins_ledger IS NOT NULL))
);
CREATE INDEX rule_rewards_due ON rule_rewards (next_attempt_at) WHERE status = 'pending' AND parked_at IS NULL;
CREATE INDEX rule_rewards_parked ON rule_rewards (parked_at) WHERE parked_at IS NOT NULL;
CREATE INDEX rule_rewards_user ON rule_rewards (rule_id, user_id);
CREATE TABLE rule_user_periods (
  rule_id uuid NOT NULL REFERENCES rules (id),
  user_id uuid NOT NULL,
  period_start timestamptz NOT NULL,
  times integer NOT NULL CHECK (times >= 0),
  PRIMARY KEY (rule_id, user_id, period_start)
);
CREATE TABLE rule_members (
  rule_id uuid NOT NULL REFERENCES rules (id),
  user_id uuid NOT NULL,
  PRIMARY KEY (rule_id, user_id)
);
CREATE TABLE partner_settings (
  partner_id uuid PRIMARY KEY,
  time_zone text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
ALTER TABLE reward_keys ADD COLUMN reward_id uuid;
