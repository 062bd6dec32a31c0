import { createServer, type Server } from 'node:http';
import { connectBus, type NatsConnection } from '@coin/bus';
import { queryDatabase, type Stack } from '@coin/testing';
import { afterAll, beforeAll } from 'vitest';
import { type RegisteredPartner, registerAndLogin } from './partners.ts';
import { stackWith } from './stack.ts';

// Long enough for the local details server on a loaded CI machine; the `slow` test waits it out.
export const DETAILS_TIMEOUT_MS = 1000;
export let stack: Stack;
export let nc: NatsConnection;
export let partner: RegisteredPartner;
export let other: RegisteredPartner;
let detailsServer: Server;
export let detailsCalls = 0;

export const ENTRY_KEYS = [
  'id',
  'userId',
  'debitOrCredit',
  'coins',
  'claimed',
  'transactionType',
  'narration',
  'from',
  'to',
  'plan',
  'paidWithGiftCard',
  'giftCardLedger',
  'laas',
  'charge',
  'refunded',
  'createdAt',
  'updatedAt',
  'balanceAfter',
].sort();
export const TRANSFER_KEYS = [...ENTRY_KEYS, 'reversed', 'status', 'token'].sort();
export const PARTY_KEYS = ['id', 'fullname_businessName', 'email', 'tag', 'userId'].sort();
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export const walletDb = <T = any>(sql: string, params: unknown[] = []) =>
  queryDatabase<T>(stack.env.WALLET_DATABASE_URL!, sql, params);

/** Registers the set-up and tear-down of the calling test file. */
export function useWalletStack(): void {
  beforeAll(async () => {
    // The partner's user-details endpoint: `tag=slow` never answers, `tag=grace` answers with details.
    detailsServer = createServer((req, res) => {
      detailsCalls += 1;
      const tag = new URL(req.url ?? '/', 'http://x').searchParams.get('tag');
      if (tag === 'slow') return;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ data: { id: 'x', fullname: 'Grace Hopper', tag, email: 'grace@partner.example' } }),
      );
    });
    await new Promise<void>((r) => detailsServer.listen(0, '127.0.0.1', r));
    const { port } = detailsServer.address() as { port: number };
    stack = await stackWith(['identity', 'onboarding', 'wallet'], {
      AUTH_RATE_LIMIT_MAX: '1000',
      WALLET_USER_DETAILS_TIMEOUT_MS: String(DETAILS_TIMEOUT_MS),
    });
    nc = await connectBus(stack.env.NATS_URL!, 'wallet-test', stack.env.NATS_NAMESPACE!);
    partner = await registerAndLogin(stack.api, {
      partnerName: 'Acme Rewards',
      userDetailsUrl: `http://127.0.0.1:${port}/users`,
    });
    other = await registerAndLogin(stack.api);
  });

  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
    detailsServer?.close();
  });
}
