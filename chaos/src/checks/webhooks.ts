import type { WebhookReceiver } from '@coin/testing';
import type { Books } from '../books.ts';
import type { OpRecord } from '../workload/clients.ts';
import type { PartnerWorld } from '../workload/world.ts';
import { type CheckResult, check } from './check.ts';

interface Onboarding {
  requestId: string;
  partnerId: string;
  users: string[];
  alreadyStored: string[];
  /** Answered at the first attempt: no earlier attempt can have stored some of its users. */
  firstAttempt: boolean;
}

function expectedFailures(o: Onboarding): Set<string> {
  const seen = new Set<string>();
  const failed = new Set(o.alreadyStored);
  for (const u of o.users) {
    if (seen.has(u)) failed.add(u);
    seen.add(u);
  }
  return failed;
}

/**
 * How many onboarding requests the service may have made that no client was told of: an onboarding
 * takes no idempotency key, so every attempt whose answer was lost (a 5xx, none) may have stored one,
 * not one per retried call (seeds 4801 and 4802: a call tried three times left two).
 */
export function unansweredOnboardAttempts(records: Pick<OpRecord, 'kind' | 'attempts' | 'final'>[]): number {
  return records
    .filter((r) => r.kind === 'onboard')
    .reduce((n, r) => n + r.attempts - (r.final === undefined ? 0 : 1), 0);
}

/**
 * Every acknowledged onboarding request got one USER_ONBOARDING webhook (one webhook-id; a
 * redelivery of the same id is allowed by Standard Webhooks and counted), listing exactly the users
 * that were not stored by it, and every user it names is stored.
 */
export async function webhookChecks(
  books: Books,
  records: OpRecord[],
  world: PartnerWorld[],
  receiver: WebhookReceiver,
): Promise<CheckResult[]> {
  const acked: Onboarding[] = [
    ...world.map((w) => ({
      ...w.setupRequest,
      partnerId: w.partnerId,
      alreadyStored: [],
      firstAttempt: true,
    })),
    ...records
      .filter((r) => r.kind === 'onboard' && r.final?.status === 200)
      .map((r) => ({
        requestId: String(r.final!.headers.location).split('/').pop()!,
        partnerId: world[r.partner].partnerId,
        users: (r.spec.body as { users: { userId: string }[] }).users.map((u) => u.userId),
        alreadyStored: r.alreadyStored ?? [],
        firstAttempt: r.attempts === 1,
      })),
  ];
  const hooks = receiver.received.filter((h) => h.json?.event === 'USER_ONBOARDING');
  const stored = new Set(
    (
      await books.query<{ partner_id: string; user_id: string }>(
        'onboarding',
        'SELECT partner_id, user_id FROM users',
      )
    ).map((u) => `${u.partner_id}/${u.user_id}`),
  );
  const problems: string[] = [];
  let redelivered = 0;
  for (const o of acked) {
    const mine = hooks.filter((h) => h.json.requestId === o.requestId);
    const ids = new Set(mine.map((h) => String(h.headers['webhook-id'])));
    redelivered += mine.length - ids.size;
    if (ids.size !== 1) {
      problems.push(`request ${o.requestId}: ${ids.size} webhooks`);
      continue;
    }
    const listed = new Set<string>(mine[0].json.failed.map((f: { user: string }) => f.user));
    const expected = expectedFailures(o);
    const missing = [...expected].filter((u) => !listed.has(u));
    // A retried request may find users its earlier, unanswered attempt stored.
    const extra = [...listed].filter((u) => !expected.has(u) && (o.firstAttempt || !o.users.includes(u)));
    if (missing.length || extra.length)
      problems.push(`request ${o.requestId}: failures listed ${[...listed]}, expected ${[...expected]}`);
    const unstored = o.users.filter((u) => !stored.has(`${o.partnerId}/${u}`));
    if (unstored.length) problems.push(`request ${o.requestId}: users not stored: ${unstored}`);
  }
  const known = new Set(acked.map((o) => o.requestId));
  const others = new Set(hooks.filter((h) => !known.has(h.json.requestId)).map((h) => h.json.requestId));
  const unanswered = unansweredOnboardAttempts(records);
  if (others.size > unanswered)
    problems.push(
      `${others.size} webhooks for requests no client was answered, only ${unanswered} onboarding attempts went unanswered`,
    );
  return [
    check(
      'one USER_ONBOARDING webhook per onboarding, listing exactly its failures',
      `${acked.length} requests, ${hooks.length} calls (${redelivered} redelivered), ${others.size} from unanswered attempts`,
      problems,
    ),
  ];
}
