-- The retention purge (outbox-retention.ts) finds published rows by when they were published,
-- oldest first, without reading the rest of the table. Only the "published" mark adds an entry, and
-- that update already writes the row anew and a key entry with it.
CREATE INDEX IF NOT EXISTS outbox_published ON outbox (published_at) WHERE published_at IS NOT NULL;
