import { z } from 'zod';

/** The periods a rule's per-user limit counts in, in the partner's time zone (weeks start on Monday). */
const LIMIT_PERIODS = ['day', 'week', 'month'] as const;

/** How late a reward may say its earning event happened: a week, so a partner's late batch still counts. */
const MAX_OCCURRED_LATENESS_DAYS = 7;

/** The clock skew forgiven on `occurredAt` in the future. */
const MAX_OCCURRED_AHEAD_MS = 60_000;

export const ruleLimit = z
  .strictObject({
    times: z.number().int().min(1).max(1_000_000),
    per: z.enum(LIMIT_PERIODS),
  })
  .meta({
    id: 'RuleLimit',
    description: 'At most `times` rewards of one user per day, week or month, in your time zone.',
  });

const isoTime = () => z.iso.datetime({ offset: true }).max(40);

/** A validity window's bound: ISO 8601 with an offset. */
export const windowTime = isoTime();

export const occurredAt = isoTime()
  .refine((t) => Date.parse(t) <= Date.now() + MAX_OCCURRED_AHEAD_MS, { error: 'must not be in the future' })
  .refine((t) => Date.parse(t) >= Date.now() - MAX_OCCURRED_LATENESS_DAYS * 86_400_000, {
    error: `must be within the last ${MAX_OCCURRED_LATENESS_DAYS} days`,
  });

/** An IANA zone name (`Europe/Paris`, `UTC`); offsets such as `+01:00` are refused (no daylight rules). */
export const timeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/, {
    error: 'must be an IANA time zone name',
    abort: true,
  })
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { error: 'must be an IANA time zone name' },
  );
