-- The index the deliveries queue's parked count reads (`readQueue` of @coin/jobs): without it, every
-- scrape of the queue's gauges read the whole table, finished jobs included. Building it reads the
-- table once, and writes to the table wait meanwhile.
CREATE INDEX deliveries_parked ON deliveries (parked_at) WHERE parked_at IS NOT NULL;
