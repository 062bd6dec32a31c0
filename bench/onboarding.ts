/**
 * `make bench` scenario `onboarding`: one call with 100,000 users through the gateway, timed from
 * the POST to the USER_ONBOARDING webhook's arrival at a local receiver, beside the time Postgres
 * takes to COPY the same 100,000 rows into a bare table on the same server in the same run.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { databaseUrlFor } from '@coin/config';
import { dropDatabase, ensureDatabase } from '@coin/db';
import { startGateway } from '@coin/gateway';
import { startIdentity } from '@coin/identity';
import { startOnboarding } from '@coin/onboarding';
import { startStack } from '@coin/testing';
import { startWebhooks } from '@coin/webhooks';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { registerAndLogin } from '../e2e/support/partners.ts';
import type { Scenario } from './scenarios.ts';

const USERS = 100_000;

function makeUsers() {
  return Array.from({ length: USERS }, (_, i) => ({
    userId: randomUUID(),
    userData: { name: `User ${i}`, email: `user${i}@partner.example`, tag: `user${i}` },
  }));
}

/** A receiver that resolves on the first webhook. */
async function receiver() {
  let arrived: (at: number) => void = () => undefined;
  const first = new Promise<number>((resolve) => {
    arrived = resolve;
  });
  let body = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      body = Buffer.concat(chunks).toString();
      res.writeHead(200).end();
      arrived(performance.now());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    first,
    body: () => body,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The baseline: COPY of the same rows (partner, user, data) into a bare table. */
async function copyBaseline(users: ReturnType<typeof makeUsers>, partnerId: string): Promise<number> {
  const url = new URL(databaseUrlFor('bench', process.env));
  url.pathname = `/coin_bench_copy_${randomUUID().slice(0, 8)}`;
  await ensureDatabase(url.toString());
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(
      'CREATE TABLE users (id uuid DEFAULT gen_random_uuid(), partner_id uuid, user_id uuid, user_data jsonb, created_at timestamptz DEFAULT now())',
    );
    const lines = users.map(
      (u) => `${partnerId}\t${u.userId}\t${JSON.stringify(u.userData).replace(/\\/g, '\\\\')}\n`,
    );
    const began = performance.now();
    await pipeline(
      Readable.from(lines),
      client.query(copyFrom('COPY users (partner_id, user_id, user_data) FROM STDIN')),
    );
    return performance.now() - began;
  } finally {
    await client.end();
    await dropDatabase(url.toString());
  }
}

async function run(): Promise<void> {
  // A NATS server of its own: test stacks running on the shared one would answer its requests.
  const stack = await startStack({
    services: { identity: startIdentity, onboarding: startOnboarding, webhooks: startWebhooks },
    gateway: startGateway,
    env: {
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_MAX: '1000',
      WEBHOOK_POLL_MS: '50',
    },
  });
  const hook = await receiver();
  try {
    const partner = await registerAndLogin(stack.api, { webhookUrl: hook.url });
    const token = partner.accessToken;
    const users = makeUsers();
    const body = JSON.stringify({ users });

    const began = performance.now();
    const res = await stack.api.post('/api/v1/laas/onboard-users', undefined, { token, raw: body });
    const answered = performance.now();
    if (res.status !== 200) throw new Error(`onboard-users answered ${res.status}: ${res.text}`);
    const arrived = await Promise.race([
      hook.first,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no webhook within 120 s')), 120_000),
      ),
    ]);
    const failed = JSON.parse(hook.body()).failed.length;

    const copyMs = await copyBaseline(users, partner.partnerId);
    const totalMs = arrived - began;
    console.log(
      `users in the call:                 ${USERS.toLocaleString('en')} (${(body.length / 2 ** 20).toFixed(1)} MiB)`,
    );
    console.log(`POST answered (validate + store):  ${(answered - began).toFixed(0)} ms`);
    console.log(`POST → webhook arrival:            ${totalMs.toFixed(0)} ms (failed in webhook: ${failed})`);
    console.log(`Postgres COPY of the same rows:    ${copyMs.toFixed(0)} ms`);
    console.log(
      `ratio round trip / COPY:           ${(totalMs / copyMs).toFixed(1)}x (target ≤ 5x, and ≤ 10 s)`,
    );
  } finally {
    await hook.close();
    await stack.stop();
  }
}

export const onboardingScenario: Scenario = {
  name: 'onboarding',
  description:
    '100,000 users in one onboard-users call: POST → webhook, beside a Postgres COPY of the same rows',
  run,
};
