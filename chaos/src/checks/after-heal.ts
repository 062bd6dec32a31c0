import type { OpRecord } from '../workload/clients.ts';
import { type CallSpec, retryingCall } from '../workload/retrying-call.ts';
import type { SeededUuids } from '../workload/seeded-uuids.ts';
import type { PartnerWorld } from '../workload/world.ts';
import { type CheckResult, check } from './check.ts';

/**
 * After healing, a fixed set of requests through each gateway, one attempt each, answers without a
 * 5xx: reads of every kind and a transfer (recorded with the workload, so the books must show it).
 */
export async function afterHealChecks(
  gateways: readonly string[],
  world: PartnerWorld[],
  uuid: SeededUuids,
  records: OpRecord[],
): Promise<CheckResult> {
  const problems: string[] = [];
  let sent = 0;
  for (const [g, url] of gateways.entries()) {
    for (const [p, w] of world.entries()) {
      const userId = w.users[g];
      const token = w.token;
      const specs: CallSpec[] = [
        { method: 'GET', path: '/api/v1/laas/coins/balance', token, query: { userId } },
        { method: 'GET', path: '/api/v1/laas/coins/get-user-transactions', token, query: { userId } },
        { method: 'GET', path: '/api/v1/laas/leaderboard/new', token, query: { userId } },
        { method: 'GET', path: `/api/v1/laas/users/${userId}`, token },
        {
          method: 'POST',
          path: '/api/v1/laas/coins/transfer-to-user-wallet',
          token,
          body: { userId, coins: 1 },
          idempotencyKey: uuid(),
        },
      ];
      for (const spec of specs) {
        const call = await retryingCall(
          () => [url],
          0,
          spec,
          () => true,
        );
        sent += 1;
        if (call.final?.status !== 200)
          problems.push(`${url} ${spec.method} ${spec.path}: ${call.final?.status ?? 'no answer'}`);
        if (spec.method === 'POST')
          records.push({ ...call, kind: 'transfer-to-user', partner: p, client: -1 });
      }
    }
  }
  return check('after healing, a fixed set of requests answers 200', `${sent} requests`, problems);
}
