-- The wallet service consumes no events: the applied-event ids table the shared migrations used to
-- give every service is dropped (it was always empty; no release of the wallet ran a consumer).
DROP TABLE IF EXISTS applied_events;
