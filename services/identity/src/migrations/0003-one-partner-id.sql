-- Partners registered before had two unrelated ids, and `id` passed where `partnerId` was expected
-- answered "not found". Nothing references `partners.id`, so it takes the value of `partner_id`.
-- Expand only: 1.0.0 still registers partners with a random `id`, so the constraint `id = partner_id`
-- waits for the release after this one (CHANGELOG.md, contract steps), which backfills again first.
UPDATE partners SET id = partner_id WHERE id <> partner_id;
