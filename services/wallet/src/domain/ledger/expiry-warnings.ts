import type { Database } from '@coin/db';
import { startPollLoop } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';
import { announceExpiringLots } from './credit-lots.ts';

/** Lots announced per pass; a full pass runs the next at once. */
const PASS = 500;

/**
 * Tells partners (a coinsExpiring event, the COINS_EXPIRING webhook) which of their users' coins
 * expire within `days`, once per lot, every `intervalMs` on every replica. 0 days turns it off.
 */
export function startExpiryWarnings(opts: {
  db: Database;
  log: Logger;
  days: number;
  intervalMs: number;
  onAnnounced: () => void;
}) {
  async function once(): Promise<number> {
    const users = await announceExpiringLots(opts.db.em.fork(), opts.days, PASS);
    if (users > 0) opts.onAnnounced();
    return users;
  }
  if (opts.days <= 0 || opts.intervalMs <= 0) return { once, stop: async () => undefined };
  const loop = startPollLoop({
    once,
    intervalMs: opts.intervalMs,
    onError: (err) => opts.log.warn({ err }, 'expiry warning pass failed; will retry'),
  });
  return { once, stop: () => loop.stop() };
}
