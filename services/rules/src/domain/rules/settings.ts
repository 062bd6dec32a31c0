import { boundRow, type EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';

/** Where a partner set none, limits count days in UTC. */
const DEFAULT_TIME_ZONE = 'UTC';

/** The time zone a partner's rules count their daily, weekly and monthly limits in. */
export async function timeZoneOf(em: EntityManager, partnerId: string): Promise<string> {
  const row = await boundRow<{ timeZone: string }>(
    em,
    'SELECT time_zone AS "timeZone" FROM partner_settings WHERE partner_id = $1',
    [partnerId],
  );
  return row?.timeZone ?? DEFAULT_TIME_ZONE;
}

/**
 * Sets the partner's time zone. The contract checked the name against the runtime's zones; Postgres,
 * which does the counting, must know it too (its zone database may be older), so it decides last.
 */
export async function setTimeZone(em: EntityManager, partnerId: string, timeZone: string): Promise<string> {
  const known = await boundRow<{ name: string }>(em, 'SELECT name FROM pg_timezone_names WHERE name = $1', [
    timeZone,
  ]);
  if (!known) throw AppError.badRequest(`timeZone ${timeZone} is not a time zone this service knows`);
  const row = await boundRow<{ timeZone: string }>(
    em,
    `INSERT INTO partner_settings (partner_id, time_zone) VALUES ($1, $2)
     ON CONFLICT (partner_id) DO UPDATE SET time_zone = EXCLUDED.time_zone, updated_at = clock_timestamp()
     RETURNING time_zone AS "timeZone"`,
    [partnerId, timeZone],
  );
  return row!.timeZone;
}
