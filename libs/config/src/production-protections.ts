import { natsTls } from './transport.ts';

/** What a production process checks before it opens a connection (the settings it reads). */
interface ProtectedSettings {
  APP_MODE: 'development' | 'production';
  NATS_URL: string;
  NATS_TLS_CA_FILE?: string;
  NATS_TLS_CERT_FILE?: string;
  NATS_TLS_KEY_FILE?: string;
  NATS_NKEY_SEED?: string;
  REDIS_URL: string;
  REDIS_PASSWORD?: string;
  INSECURE_TEST_TRANSPORT?: string;
}

/** A service's database as it was configured: its URL, and whether it was given one of its own. */
interface DatabaseSetting {
  service: string;
  databaseUrl: string;
  ownDatabaseUrl: boolean;
}

function refuse(resource: string, missing: string[]): void {
  if (missing.length)
    throw new Error(
      `APP_MODE=production refuses to start without ${missing.join(', ')} (${resource}; docs/operating/security.md)`,
    );
}

/**
 * In production a process refuses to open a connection its protection is missing from, instead of
 * running without it: NATS without TLS or its own credentials, Redis without TLS or AUTH, a
 * database without verified TLS or as a role that is not the service's own. `INSECURE_TEST_TRANSPORT=1`
 * (the test harness's servers speak no TLS and know no NATS users) lifts the transport and NATS
 * credential checks only, never the database role's; `npm run deploy:check` refuses it in a deployment.
 */
export const productionProtections = {
  bus(config: ProtectedSettings): void {
    if (config.APP_MODE !== 'production') return;
    const missing: string[] = [];
    if (!config.INSECURE_TEST_TRANSPORT && !natsTls(config)?.caFile)
      missing.push('TLS to NATS (NATS_URL tls://… and NATS_TLS_CA_FILE)');
    if (!config.INSECURE_TEST_TRANSPORT && !config.NATS_NKEY_SEED)
      missing.push('its own NATS credentials (NATS_NKEY_SEED)');
    refuse('NATS', missing);
  },
  redis(config: ProtectedSettings): void {
    if (config.APP_MODE !== 'production' || config.INSECURE_TEST_TRANSPORT) return;
    const missing: string[] = [];
    if (!config.REDIS_URL.startsWith('rediss://')) missing.push('TLS to Redis (REDIS_URL rediss://…)');
    if (!config.REDIS_PASSWORD) missing.push('Redis AUTH (REDIS_PASSWORD)');
    refuse('Redis', missing);
  },
  database(config: ProtectedSettings, db: DatabaseSetting): void {
    if (config.APP_MODE !== 'production') return;
    const missing: string[] = [];
    const variable = `${db.service.toUpperCase()}_DATABASE_URL`;
    if (!db.ownDatabaseUrl) missing.push(`its own database role and URL (${variable})`);
    const sslmode = new URL(db.databaseUrl).searchParams.get('sslmode');
    if (!config.INSECURE_TEST_TRANSPORT && sslmode !== 'verify-full')
      missing.push(`verified TLS to Postgres (sslmode=verify-full in ${variable})`);
    refuse('Postgres', missing);
  },
};
