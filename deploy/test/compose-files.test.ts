import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDeployment } from '../src/check.ts';
import { validateCompose } from '../src/compose.ts';
import { brokenCopy, removeCopiesAfterAll } from './broken-copy.ts';

removeCopiesAfterAll();

describe('deployment files: docker compose and the runtime launcher', () => {
  it('refuses a compose file with an unknown key, a bad duration or a dependency on no service', async () => {
    const dir = await brokenCopy('docker-compose.yml', (t) =>
      t
        .replace('    interval: 2s\n', '    interval: two seconds\n')
        .replace('    restart: "no"\n', '    restart: "no"\n    restrat: always\n')
        .replace('    depends_on: [jaeger]\n', '    depends_on: [jaegr]\n'),
    );
    const problems = await validateCompose(join(dir, 'docker-compose.yml'), 'docker-compose.yml');
    const text = problems.map((p) => `${p.resource}: ${p.message}`).join('\n');
    expect(text).toContain('/services/postgres/healthcheck/interval: must match format "duration"');
    expect(text).toContain('must NOT have additional properties (restrat)');
    expect(text).toContain('/services/otel-collector: depends_on names no service: jaegr');
  });

  it("refuses a compose service on another's database role, the shared superuser or a migration URL", async () => {
    const dir = await brokenCopy('docker-compose.yml', (t) =>
      t
        .replace(
          'LEADERBOARD_DATABASE_URL: postgres://coin_leaderboard:dev-only-password@postgres:5432/coin_leaderboard',
          'LEADERBOARD_DATABASE_URL: postgres://coin_wallet:dev-only-password@postgres:5432/coin_wallet',
        )
        .replace(
          'WALLET_DATABASE_URL: postgres://coin_wallet:dev-only-password@postgres:5432/coin_wallet',
          'WALLET_DATABASE_URL: postgres://postgres:dev-only-password@postgres:5432/coin_wallet\n      WALLET_MIGRATION_DATABASE_URL: postgres://coin_migrate:x@postgres:5432/coin_wallet',
        ),
    );
    const problems = await validateCompose(join(dir, 'docker-compose.yml'), 'docker-compose.yml');
    const text = problems.map((p) => `${p.resource}: ${p.message}`).join('\n');
    expect(text).toContain(
      '/services/leaderboard: LEADERBOARD_DATABASE_URL must name its own role and database',
    );
    expect(text).toContain('/services/wallet: WALLET_DATABASE_URL must name its own role and database');
    expect(text).toContain(
      '/services/wallet: WALLET_MIGRATION_DATABASE_URL: a service holds only its own database role',
    );
  });

  it('refuses an image or a compose service that starts node without the runtime launcher', async () => {
    const dir = await brokenCopy('Dockerfile', (t) =>
      t.replace(
        'ENTRYPOINT ["/bin/sh", "/app/libs/startup/bin/node-service.sh"]',
        'ENTRYPOINT ["node", "--max-semi-space-size=4"]',
      ),
    );
    const compose = join(dir, 'docker-compose.yml');
    await writeFile(
      compose,
      (await readFile(compose, 'utf8')).replace(
        'exec /bin/sh libs/startup/bin/node-service.sh "$$@"',
        'exec node --heap-growing-percent=30 "$$@"',
      ),
    );
    const { problems } = await checkDeployment(dir);
    expect(problems.map((p) => `${p.source}: ${p.resource}: ${p.message}`)).toEqual([
      'Dockerfile: ENTRYPOINT: must be ["/bin/sh","/app/libs/startup/bin/node-service.sh"]',
      expect.stringMatching(
        /^docker-compose\.yml: line \d+: starts node without libs\/startup\/bin\/node-service\.sh: - NATS_NKEY_SEED=.* exec node --heap-growing-percent=30/,
      ),
      'Dockerfile: Dockerfile: sets runtime flags outside libs/startup/bin/node-service.sh',
    ]);
  });
});
