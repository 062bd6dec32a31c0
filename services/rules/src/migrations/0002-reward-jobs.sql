-- Pending rewards become a queue of @coin/jobs: a payment that keeps failing is parked, to be replayed.
ALTER TABLE participations ADD COLUMN last_error text, ADD COLUMN parked_at timestamptz;
DROP INDEX participations_due;
CREATE INDEX participations_due ON participations (next_attempt_at) WHERE status = 'pending' AND parked_at IS NULL;
