-- A lock window that ended full makes the next one twice as long (lock_level), so an attacker
-- guessing one account's password slows down exponentially while the owner is never locked for good.
ALTER TABLE login_failures ADD COLUMN lock_level integer NOT NULL DEFAULT 0;
