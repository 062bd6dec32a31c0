import type { Books } from '../books.ts';
import type { OpRecord } from '../workload/clients.ts';
import { type CheckResult, cents, check } from './check.ts';

/** Waited for at most, for the expiry job to reach every lot and pending transfer past its expiry. */
const SETTLE_MS = 30_000;
/** Past its expiry by more than this, a lot or a pending transfer the job left alone is a problem. */
const GRACE = "interval '15 seconds'";

const acked = (records: OpRecord[], kind: OpRecord['kind']) =>
  records.filter((r) => r.kind === kind && r.final?.status === 200);

/**
 * Pending transfers and credit lots after the run: each acknowledged hold and expiring credit as
 * asked; each pending transfer resolved once, as the answers said; every coin accounted for across
 * wallets, holds and expiries; each lot expired once, and none left past its expiry.
 */
export async function lotsAndHoldsChecks(books: Books, records: OpRecord[]): Promise<CheckResult[]> {
  const late = async () =>
    (
      await books.query<{ what: string; id: string }>(
        'wallet',
        `SELECT 'lot' AS what, id::text FROM credit_lots WHERE remaining > 0 AND expires_at < now() - ${GRACE}
         UNION ALL
         SELECT 'pending transfer', id::text FROM pending_transfers
          WHERE status = 'pending' AND expires_at < now() - ${GRACE}`,
      )
    ).map((r) => `${r.what} ${r.id} is past its expiry and not expired`);
  const deadline = Date.now() + SETTLE_MS;
  let lateProblems = await late();
  while (lateProblems.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    lateProblems = await late();
  }

  const holds = new Map(
    (
      await books.query<{
        id: string;
        coins: string;
        status: string;
        on_expiry: string;
        posted_coins: string | null;
      }>('wallet', 'SELECT id, coins::text, status, on_expiry, posted_coins::text FROM pending_transfers')
    ).map((p) => [p.id, p]),
  );
  const lots = new Map(
    (
      await books.query<{ id: string; coins: string; seconds: number }>(
        'wallet',
        `SELECT c.id, c.coins::text, extract(epoch FROM c.expires_at - e.created_at)::float AS seconds
           FROM credit_lots c JOIN ledger_entries e ON e.id = c.id`,
      )
    ).map((l) => [l.id, l]),
  );
  const asAsked: string[] = [];
  for (const r of acked(records, 'hold-pending')) {
    const body = r.spec.body as { coins: number; pending: { onExpiry: string } };
    const p = holds.get(r.final!.body.data.pendingTransfer.id);
    if (!p || cents(p.coins) !== cents(body.coins) || p.on_expiry !== body.pending.onExpiry)
      asAsked.push(`hold key ${r.spec.idempotencyKey}: ${JSON.stringify(p)} for ${JSON.stringify(body)}`);
  }
  for (const r of acked(records, 'transfer-expiring')) {
    const body = r.spec.body as { coins: number; validity: { expiresInSeconds: number } };
    const l = lots.get(r.final!.body.data.coinsLedger.id);
    if (
      !l ||
      cents(l.coins) !== cents(body.coins) ||
      Math.abs(l.seconds - body.validity.expiresInSeconds) > 1
    )
      asAsked.push(
        `credit key ${r.spec.idempotencyKey}: lot ${JSON.stringify(l)} for ${JSON.stringify(body)}`,
      );
  }

  // Each acknowledged post or void is what became of its pending transfer; two of them never both won.
  const resolved: string[] = [];
  const winners = new Map<string, string>();
  const STATUS_OF: Record<string, string> = {
    PENDING_ALREADY_POSTED: 'posted',
    PENDING_ALREADY_VOIDED: 'voided',
    PENDING_EXPIRED: 'expired',
  };
  for (const r of records.filter((x) => x.kind === 'resolve-pending' && x.final)) {
    const [, id, action] = /pending-transfers\/([^/]+)\/(post|void)$/.exec(r.spec.path) ?? [];
    const p = holds.get(id);
    const answer = r.final!;
    if (answer.status === 200) {
      const pt = answer.body.data.pendingTransfer;
      const entry = answer.body.data.coinsLedger.id as string;
      if (winners.has(id) && winners.get(id) !== entry) resolved.push(`pending transfer ${id} won twice`);
      winners.set(id, entry);
      const want = action === 'post' ? 'posted' : 'voided';
      const asked = (r.spec.body as { coins?: number }).coins;
      if (pt.status !== want || p?.status !== want)
        resolved.push(`${action} of ${id} answered 200 (${pt.status}), it is ${p?.status}`);
      else if (want === 'posted' && cents(p.posted_coins!) !== cents(asked ?? p.coins))
        resolved.push(`post of ${id} for ${asked ?? 'all'}: posted ${p.posted_coins} of ${p.coins}`);
    } else if (answer.status === 409 && STATUS_OF[answer.body.data.appErrorCode]) {
      const said = STATUS_OF[answer.body.data.appErrorCode];
      if (p?.status !== said && !(said === 'posted' && p?.status === 'posted'))
        resolved.push(`${action} of ${id} answered ${answer.body.data.appErrorCode}, it is ${p?.status}`);
    } else if (answer.status !== 409) {
      resolved.push(
        `${action} of ${id} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`,
      );
    }
  }

  const accounted = await books.query<{ partner_id: string; problem: string }>(
    'wallet',
    `WITH e AS (
       SELECT partner_id,
              sum(CASE WHEN transaction_type IN ('partner_user_transfer', 'user_partner_transfer', 'reversal', 'expiry')
                       THEN CASE debit_or_credit WHEN 'CR' THEN coins ELSE -coins END ELSE 0 END) AS available,
              sum(CASE transaction_type WHEN 'expiry' THEN coins ELSE 0 END) AS expired
         FROM ledger_entries GROUP BY partner_id),
     a AS (
       SELECT partner_id, sum(balance) FILTER (WHERE kind = 'user') AS wallets,
              sum(balance) FILTER (WHERE kind = 'hold') AS holds,
              sum(issued - redeemed - expired) FILTER (WHERE kind = 'partner') AS net,
              sum(expired) FILTER (WHERE kind = 'partner') AS expired
         FROM accounts GROUP BY partner_id),
     p AS (SELECT partner_id, sum(coins) AS pending FROM pending_transfers WHERE status = 'pending' GROUP BY partner_id),
     l AS (SELECT partner_id, sum(expired_coins) AS expired FROM credit_lots GROUP BY partner_id)
     SELECT a.partner_id, format('wallets %s (entries say %s), holds %s (pending transfers %s), issued-redeemed-expired %s, expired %s / %s / %s',
              a.wallets, e.available, a.holds, p.pending, a.net, a.expired, e.expired, l.expired) AS problem
       FROM a LEFT JOIN e USING (partner_id) LEFT JOIN p USING (partner_id) LEFT JOIN l USING (partner_id)
      WHERE COALESCE(a.wallets, 0) <> COALESCE(e.available, 0) OR COALESCE(a.holds, 0) <> COALESCE(p.pending, 0)
         OR COALESCE(a.net, 0) <> COALESCE(a.wallets, 0) + COALESCE(a.holds, 0)
         OR COALESCE(a.expired, 0) <> COALESCE(e.expired, 0) OR COALESCE(a.expired, 0) <> COALESCE(l.expired, 0)`,
  );
  const [figures] = await books.query<{ lots: number; expired: number; holds: number; resolved: number }>(
    'wallet',
    `SELECT (SELECT count(*) FROM credit_lots)::int AS lots,
            (SELECT count(*) FROM credit_lots WHERE expiry_entry_id IS NOT NULL)::int AS expired,
            (SELECT count(*) FROM pending_transfers)::int AS holds,
            (SELECT count(*) FROM pending_transfers WHERE status <> 'pending')::int AS resolved`,
  );
  return [
    check(
      'every acknowledged hold and expiring credit as asked',
      `${acked(records, 'hold-pending').length} holds, ${acked(records, 'transfer-expiring').length} expiring credits`,
      asAsked,
    ),
    check(
      'each pending transfer resolved once, as its answers say',
      `${figures.resolved} of ${figures.holds} resolved`,
      resolved,
    ),
    check(
      'every coin accounted for: wallets, holds, expired',
      `${figures.lots} lots, ${figures.expired} expired`,
      accounted.map((r) => `partner ${r.partner_id}: ${r.problem}`),
    ),
    check('no lot or pending transfer left past its expiry', `within ${SETTLE_MS / 1000} s`, lateProblems),
  ];
}

/** Entries no client key explains but a pending transfer or a lot does: its post, release or expiry. */
export async function entriesOfHoldsAndLots(books: Books, explained: Set<string>): Promise<Set<string>> {
  const derived = await books.query<{ parent: string; child: string }>(
    'wallet',
    `SELECT id::text AS parent, post_entry_id::text AS child FROM pending_transfers WHERE post_entry_id IS NOT NULL
     UNION ALL SELECT id::text, void_entry_id::text FROM pending_transfers WHERE void_entry_id IS NOT NULL
     UNION ALL SELECT id::text, expiry_entry_id::text FROM credit_lots WHERE expiry_entry_id IS NOT NULL`,
  );
  return new Set(derived.filter((d) => explained.has(d.parent)).map((d) => d.child));
}
