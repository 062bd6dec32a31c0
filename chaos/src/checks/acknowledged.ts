import type { Books } from '../books.ts';
import type { OpRecord } from '../workload/clients.ts';
import type { PartnerWorld } from '../workload/world.ts';
import { type CheckResult, check } from './check.ts';

/**
 * RPO 0, from the clients' side: every write a client was acknowledged is in the books after the
 * failovers: each transfer's and reward's ledger entry, each onboarding request with every user it
 * stored (a duplicate or an already-stored user aside). A commit the old primary acknowledged but
 * its standby never received is what this finds missing.
 */
export async function acknowledgedChecks(
  books: Books,
  records: OpRecord[],
  world: PartnerWorld[],
): Promise<CheckResult[]> {
  const entries = new Set(
    (await books.query<{ id: string }>('wallet', 'SELECT id FROM ledger_entries')).map((e) => e.id),
  );
  const requests = new Set(
    (await books.query<{ id: string }>('onboarding', 'SELECT id::text FROM onboarding_requests')).map(
      (r) => r.id,
    ),
  );
  const users = new Set(
    (
      await books.query<{ partner_id: string; user_id: string }>(
        'onboarding',
        'SELECT partner_id, user_id FROM users',
      )
    ).map((u) => `${u.partner_id}/${u.user_id}`),
  );
  const lost: string[] = [];
  const ok = records.filter((r) => r.final && r.final.status < 300);
  const counted = { transfers: 0, rewards: 0, onboardings: 0 };
  for (const r of ok) {
    if (r.kind === 'transfer-to-user' || r.kind === 'transfer-from-user' || r.kind === 'reward') {
      const id = r.final!.body.data.coinsLedger.id as string;
      if (r.kind === 'reward') counted.rewards += 1;
      else counted.transfers += 1;
      if (!entries.has(id))
        lost.push(
          `${r.kind} answered ${new Date(r.finalAt!).toISOString().slice(11, 23)} with entry ${id}: not in the ledger`,
        );
    } else if (r.kind === 'onboard') {
      counted.onboardings += 1;
      const requestId = String(r.final!.headers.location).split('/').pop()!;
      const partnerId = world[r.partner].partnerId;
      if (!requests.has(requestId)) lost.push(`onboarding request ${requestId}: not stored`);
      else {
        const body = r.spec.body as { users: { userId: string }[] };
        const missing = body.users.map((u) => u.userId).filter((u) => !users.has(`${partnerId}/${u}`));
        if (missing.length) lost.push(`onboarding request ${requestId}: users ${missing} not stored`);
      }
    }
  }
  return [
    check(
      'every acknowledged transfer, reward and onboarding survived the failovers (RPO 0)',
      `${counted.transfers} transfers, ${counted.rewards} rewards, ${counted.onboardings} onboardings acknowledged`,
      lost,
    ),
  ];
}
