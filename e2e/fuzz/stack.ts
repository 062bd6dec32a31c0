import { startGateway } from '@coin/gateway';
import { freePort, type Stack, type Starter, startStack } from '@coin/testing';
import { request } from 'undici';
import { starters } from '../support/stack.ts';
import type { FuzzWorld } from './draft.ts';

export interface FuzzStack {
  stack: Stack;
  /** Each service's own `/ready` (its metrics port). */
  serviceReadyUrls: Record<string, string>;
}

/**
 * Every service and the gateway, each service with a metrics port of its own so that its `/ready`
 * can be asked after the run. The sign-up limit is lifted: the fuzzer tests what the operations do
 * with hostile input, and would otherwise only meet 429s there.
 */
export async function startFuzzStack(): Promise<FuzzStack> {
  const services: Record<string, Starter> = {};
  const serviceReadyUrls: Record<string, string> = {};
  for (const [name, start] of Object.entries(starters)) {
    const port = await freePort();
    serviceReadyUrls[name] = `http://127.0.0.1:${port}/ready`;
    services[name] = (env) => start({ ...env, METRICS_PORT: String(port) });
  }
  const stack = await startStack({
    services,
    gateway: startGateway,
    env: {
      AUTH_RATE_LIMIT_MAX: '1000000',
      // A 10,000-request run takes 30-60 min on a loaded 2-core machine: with the default 15 min the
      // world's access tokens expired midway and the rest of the run met only 401s.
      ACCESS_TOKEN_TTL_SECONDS: '86400',
      WEBHOOK_RETRY_SCHEDULE_MS: '0,200,1000',
      WEBHOOK_TIMEOUT_MS: '2000',
      // Waits long enough that a loaded shared machine does not answer 503/504 for capacity: what is
      // judged is the answer to the input, and a 5xx within these limits is still a failure.
      REQUEST_TIMEOUT_MS: '20000',
      DB_ACQUIRE_TIMEOUT_MS: '15000',
      DB_STATEMENT_TIMEOUT_MS: '15000',
    },
  });
  return { stack, serviceReadyUrls };
}

/**
 * What no longer serves after a run: the gateway's and each service's `/ready`, and a balance read
 * that goes through the gateway, the bus and the wallet's database.
 */
export async function notReady(fuzz: FuzzStack, world: FuzzWorld): Promise<string[]> {
  const targets = { gateway: `${fuzz.stack.url}/ready`, ...fuzz.serviceReadyUrls };
  const problems: string[] = [];
  for (const [name, url] of Object.entries(targets)) {
    const status = await request(url, { headersTimeout: 5_000, bodyTimeout: 5_000 }).then(
      async (r) => {
        await r.body.dump();
        return r.statusCode;
      },
      (err: Error) => err.message,
    );
    if (status !== 200) problems.push(`${name} /ready: ${status}`);
  }
  const userId = world.pools.userId?.[0];
  const balance = await fuzz.stack.api.get('/api/v1/laas/coins/balance', {
    token: world.accessToken,
    query: { userId },
  });
  if (balance.status !== 200) problems.push(`balance read: ${balance.status} ${balance.text.slice(0, 200)}`);
  return problems;
}
