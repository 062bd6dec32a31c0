-- A large onboarding request is written in the synchronous part of the call, and lz4 compresses it
-- faster than pglz (docs/decisions/2026-11-22-onboarding-requests-lz4.md).
ALTER TABLE onboarding_requests ALTER COLUMN users SET COMPRESSION lz4;
