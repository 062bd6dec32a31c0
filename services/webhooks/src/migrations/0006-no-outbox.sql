-- The webhooks service publishes no events: the outbox table the shared migrations used to give
-- every service is dropped (it was always empty; no release of webhooks ran an outbox relay).
DROP TABLE IF EXISTS outbox;
