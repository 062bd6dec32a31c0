import { describe, expect, it } from 'vitest';
import { productionProtections } from '../src/index.ts';

const SEED = `SU${'A'.repeat(56)}`;
const secure = {
  APP_MODE: 'production' as const,
  NATS_URL: 'tls://nats-0:4222,tls://nats-1:4222',
  NATS_TLS_CA_FILE: '/etc/coin/nats-ca/ca.crt',
  NATS_NKEY_SEED: SEED,
  REDIS_URL: 'rediss://redis:6380',
  REDIS_PASSWORD: 'secret',
};
const wallet = {
  service: 'wallet',
  databaseUrl: 'postgres://coin_wallet:pw@db:5432/coin_wallet?sslmode=verify-full&sslrootcert=/ca.crt',
  ownDatabaseUrl: true,
};

describe('a production process', () => {
  it('starts with TLS to NATS, Redis and Postgres, its own NATS user and its own database role', () => {
    expect(() => productionProtections.bus(secure)).not.toThrow();
    expect(() => productionProtections.redis(secure)).not.toThrow();
    expect(() => productionProtections.database(secure, wallet)).not.toThrow();
  });

  it('refuses NATS without TLS, without a CA, or without its own credentials, naming each', () => {
    expect(() =>
      productionProtections.bus({ ...secure, NATS_URL: 'nats://nats:4222', NATS_TLS_CA_FILE: undefined }),
    ).toThrow(
      /APP_MODE=production refuses to start without TLS to NATS \(NATS_URL tls:\/\/… and NATS_TLS_CA_FILE\)/,
    );
    expect(() => productionProtections.bus({ ...secure, NATS_TLS_CA_FILE: undefined })).toThrow(
      /TLS to NATS/,
    );
    expect(() => productionProtections.bus({ ...secure, NATS_NKEY_SEED: undefined })).toThrow(
      /its own NATS credentials \(NATS_NKEY_SEED\)/,
    );
  });

  it('refuses Redis without TLS or AUTH', () => {
    expect(() => productionProtections.redis({ ...secure, REDIS_URL: 'redis://redis:6379' })).toThrow(
      /TLS to Redis \(REDIS_URL rediss:\/\/…\)/,
    );
    expect(() => productionProtections.redis({ ...secure, REDIS_PASSWORD: undefined })).toThrow(
      /Redis AUTH \(REDIS_PASSWORD\)/,
    );
  });

  it("refuses a database without verify-full TLS, or reached through the shared base URL, not its own role's", () => {
    expect(() =>
      productionProtections.database(secure, {
        ...wallet,
        databaseUrl: 'postgres://coin_wallet:pw@db/coin_wallet',
      }),
    ).toThrow(/verified TLS to Postgres \(sslmode=verify-full in WALLET_DATABASE_URL\)/);
    expect(() =>
      productionProtections.database(secure, {
        ...wallet,
        databaseUrl: `${wallet.databaseUrl}`.replace('verify-full', 'require'),
      }),
    ).toThrow(/sslmode=verify-full/);
    expect(() => productionProtections.database(secure, { ...wallet, ownDatabaseUrl: false })).toThrow(
      /its own database role and URL \(WALLET_DATABASE_URL\)/,
    );
  });

  it('with INSECURE_TEST_TRANSPORT (the harness) skips the transport checks, never the role check', () => {
    const test = {
      ...secure,
      INSECURE_TEST_TRANSPORT: '1',
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_NKEY_SEED: undefined,
    };
    expect(() => productionProtections.bus(test)).not.toThrow();
    expect(() => productionProtections.redis({ ...test, REDIS_URL: 'redis://127.0.0.1:6379' })).not.toThrow();
    expect(() => productionProtections.database(test, { ...wallet, ownDatabaseUrl: false })).toThrow(
      /WALLET_DATABASE_URL/,
    );
  });

  it('in development mode checks nothing', () => {
    const dev = {
      APP_MODE: 'development' as const,
      NATS_URL: 'nats://127.0.0.1:4222',
      REDIS_URL: 'redis://127.0.0.1:6379',
    };
    expect(() => productionProtections.bus(dev)).not.toThrow();
    expect(() => productionProtections.redis(dev)).not.toThrow();
    expect(() => productionProtections.database(dev, { ...wallet, ownDatabaseUrl: false })).not.toThrow();
  });
});
