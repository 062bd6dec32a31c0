// The pending-transfer tests: the wallet alone (two replicas where a test says so), its neighbours' subjects answered by stand-ins.
import { randomUUID } from 'node:crypto';
import { identity, onboarding, wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { Stoppable } from '@coin/startup';
import { type ServiceAlone, startServiceAlone, withDatabase } from '@coin/testing';
import { afterAll, beforeAll } from 'vitest';
import { verifyLedger } from '../src/index.ts';
import { startWallet } from '../src/service.ts';

export let svc: ServiceAlone;
export const replicas: Stoppable[] = [];
const users = new Map<string, Set<string>>();
export const EXPIRY_INTERVAL_MS = '100';
export function partnerWithUsers(n: number) {
  const partnerId = randomUUID();
  const ids = Array.from({ length: n }, () => randomUUID());
  users.set(partnerId, new Set(ids));
  return { partnerId, ids };
}

export const balance = (partnerId: string, userId: string) =>
  svc.call(wallet.getBalance, { partnerId, query: { userId } });

export function hold(
  partnerId: string,
  userId: string,
  coins: number,
  pending: Record<string, unknown> = {},
) {
  return svc.call(wallet.transferToUser, {
    partnerId,
    idempotencyKey: randomUUID(),
    body: { userId, coins, pending: { onExpiry: 'void', ...pending } },
  });
}

export const post = (partnerId: string, id: string, body: { coins?: number } = {}, key = randomUUID()) =>
  svc.call(wallet.postPendingTransfer, { partnerId, params: { id }, body, idempotencyKey: key });
export const voidIt = (partnerId: string, id: string, key = randomUUID()) =>
  svc.call(wallet.voidPendingTransfer, { partnerId, params: { id }, body: {}, idempotencyKey: key });

export async function ledgerViolations(): Promise<string[]> {
  return withDatabase(
    svc.env.WALLET_DATABASE_URL!,
    async (client) => (await verifyLedger(client)).violations,
  );
}

/** The code a refused call answered with, or 'ok'. */
export async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.details.appErrorCode;
    throw err;
  }
}

/** Registers the set-up and tear-down of the calling test file. */
export function useWalletAlone(): void {
  beforeAll(async () => {
    svc = await startServiceAlone('wallet', startWallet, { WALLET_EXPIRY_INTERVAL_MS: EXPIRY_INTERVAL_MS });
    svc.standIn(onboarding.getUser, async ({ partnerId, body }) => {
      const userId = body.userId.toLowerCase();
      if (!users.get(partnerId)?.has(userId)) throw AppError.notFound('user not found');
      const at = new Date().toISOString();
      return { id: randomUUID(), userId, userData: {}, tierId: null, createdAt: at, updatedAt: at };
    });
    svc.standIn(identity.getPartnerProfile, async ({ partnerId }) => ({
      partnerId,
      applicationName: 'Pending test',
      partnerName: 'Pending Test Ltd',
      email: 'pending@example.com',
      userDetailsUrl: 'https://partner.example/users',
    }));
  });

  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await svc?.stop();
  });
}
