-- A partner's redelivery of a pending delivery is an extra attempt: `resume_at` keeps the automatic
-- schedule it interrupts (due again then if the extra attempt fails), and each attempt says whether
-- the partner asked for it.
ALTER TABLE deliveries ADD COLUMN resume_at timestamptz;
ALTER TABLE delivery_attempts ADD COLUMN manual boolean NOT NULL DEFAULT false;
