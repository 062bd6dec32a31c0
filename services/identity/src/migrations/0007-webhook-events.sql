-- The event kinds a partner's webhook receives; NULL (every existing partner) means every kind.
ALTER TABLE partners ADD COLUMN webhook_events text[];
