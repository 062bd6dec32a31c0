-- Applied ids are deleted once no copy of their event can arrive again (applied-events-retention.ts),
-- oldest first by `applied_events_expiring`; a parked event's id is pinned instead, for as long as its
-- replay may come. The column's constant default adds it without rewriting the table.
ALTER TABLE applied_events ADD COLUMN IF NOT EXISTS pinned boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS applied_events_expiring ON applied_events (applied_at) WHERE NOT pinned;
