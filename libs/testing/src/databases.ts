import { randomBytes } from 'node:crypto';
import { databaseUrlFor } from '@coin/config';
import { dropDatabase } from '@coin/db';

export interface IsolatedDatabases {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh database per service for one test file: `coin_t_<service>_<random>`, dropped after. */
export function isolatedDatabases(
  services: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): IsolatedDatabases {
  const suffix = randomBytes(4).toString('hex');
  const out: Record<string, string> = {};
  for (const service of services) {
    const base = new URL(databaseUrlFor(service, env));
    base.pathname = `/coin_t_${service}_${suffix}`;
    out[`${service.toUpperCase()}_DATABASE_URL`] = base.toString();
  }
  return {
    env: out,
    async drop() {
      await Promise.all(Object.values(out).map((url) => dropDatabase(url).catch(() => undefined)));
    },
  };
}
