-- The index the rewards queue's parked count reads (`readQueue` of @coin/jobs): without it, every
-- scrape of the queue's gauges read the whole table, finished jobs included. Building it reads the
-- table once, and writes to the table wait meanwhile.
CREATE INDEX participations_parked ON participations (parked_at) WHERE parked_at IS NOT NULL;
