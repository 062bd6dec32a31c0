-- Tier rules: a tier may carry a threshold of coins earned in a rolling window (`min_coins`). The
-- onboarding service now consumes the wallet's transfers (its own `applied_events` again, the
-- library's columns and index: its 0005 dropped the library's table, whose migration is recorded as
-- run), counts each user's credits by UTC day (`user_earnings`), moves a user up when a credit takes
-- the window's sum over a higher threshold, and reviews the user at the end of each period
-- (`tier_reviews`, a queue of @coin/jobs: one scheduled review per user, done once). The partner's
-- window, period and downgrade policy are `tier_policies`. Expand only: new tables, and a nullable
-- column the previous release never reads.
CREATE TABLE IF NOT EXISTS applied_events (
  consumer text NOT NULL,
  event_id text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  pinned boolean NOT NULL DEFAULT false,
  PRIMARY KEY (consumer, event_id)
);
CREATE INDEX IF NOT EXISTS applied_events_expiring ON applied_events (applied_at) WHERE NOT pinned;
ALTER TABLE tiers ADD COLUMN min_coins numeric;
CREATE TABLE tier_policies (
  partner_id uuid PRIMARY KEY,
  window_days integer NOT NULL CHECK (window_days >= 1),
  period_days integer NOT NULL CHECK (period_days >= 1),
  downgrade text NOT NULL CHECK (downgrade IN ('one_level', 'reevaluate')),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE user_earnings (
  partner_id uuid NOT NULL,
  user_id uuid NOT NULL,
  day date NOT NULL,
  coins numeric NOT NULL,
  PRIMARY KEY (partner_id, user_id, day)
);
CREATE TABLE tier_reviews (
  id uuid PRIMARY KEY,
  partner_id uuid NOT NULL,
  user_id uuid NOT NULL,
  tier_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'done', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  parked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE UNIQUE INDEX tier_reviews_one_scheduled ON tier_reviews (partner_id, user_id) WHERE status = 'scheduled';
CREATE INDEX tier_reviews_due ON tier_reviews (next_attempt_at) WHERE status = 'scheduled' AND parked_at IS NULL;
CREATE INDEX tier_reviews_parked ON tier_reviews (parked_at) WHERE parked_at IS NOT NULL;
