-- A 100,000-user request is about 13 MB of JSON written in the synchronous part of the call;
-- pglz took about twice as long as lz4 to compress it.
ALTER TABLE onboarding_requests ALTER COLUMN users SET COMPRESSION lz4;
