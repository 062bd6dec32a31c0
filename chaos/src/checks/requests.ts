import type { Books } from '../books.ts';
import type { OpRecord } from '../workload/clients.ts';
import type { PartnerWorld } from '../workload/world.ts';
import { type CheckResult, cents, check } from './check.ts';
import { entriesOfHoldsAndLots } from './lots-and-holds.ts';

interface Entry {
  id: string;
  partner_id: string;
  user_id: string;
  debit_or_credit: string;
  coins: string;
}

/** The keyed calls that write an entry of their own (a hold is its `pending_transfer` entry). */
const isTransfer = (r: OpRecord) =>
  ['transfer-to-user', 'transfer-from-user', 'transfer-expiring', 'hold-pending'].includes(r.kind);

/**
 * Jepsen's bank read, from the clients' side: every acknowledged transfer is in the ledger once,
 * as it was asked; a key has at most one effect; a refused transfer has none; every entry is
 * explained by a key a client sent or by a paid reward (no phantom money).
 */
export async function requestChecks(
  books: Books,
  records: OpRecord[],
  world: PartnerWorld[],
): Promise<CheckResult[]> {
  const entries = new Map(
    (
      await books.query<Entry>(
        'wallet',
        'SELECT id, partner_id, user_id, debit_or_credit, coins::text FROM ledger_entries',
      )
    ).map((e) => [e.id, e]),
  );
  const keys = new Map(
    (
      await books.query<{ partner_id: string; key: string; entry_id: string }>(
        'wallet',
        'SELECT partner_id, key, entry_id FROM idempotency_keys',
      )
    ).map((k) => [`${k.partner_id}/${k.key}`, k.entry_id]),
  );
  const rewarded = new Set(
    (
      await books.query<{ ledger_entry_id: string }>(
        'rules',
        `SELECT ledger_entry_id FROM participations WHERE ledger_entry_id IS NOT NULL
         UNION ALL SELECT ledger_entry_id FROM rule_rewards WHERE ledger_entry_id IS NOT NULL`,
      )
    ).map((p) => p.ledger_entry_id),
  );
  const keyOf = (r: OpRecord) => `${world[r.partner].partnerId}/${r.spec.idempotencyKey}`;
  const transfers = records.filter(isTransfer);

  const acked = transfers.filter((r) => r.final?.status === 200);
  const ackProblems: string[] = [];
  for (const r of acked) {
    const id = r.final!.body.data.coinsLedger.id as string;
    const e = entries.get(id);
    const body = r.spec.body as { userId: string; coins: number };
    const direction = r.kind === 'transfer-from-user' ? 'DE' : 'CR';
    if (!e) ackProblems.push(`key ${r.spec.idempotencyKey}: acknowledged entry ${id} is not in the ledger`);
    else if (keys.get(keyOf(r)) !== id)
      ackProblems.push(`key ${r.spec.idempotencyKey}: stored for ${keys.get(keyOf(r))}, answered ${id}`);
    else if (
      e.user_id !== body.userId ||
      e.debit_or_credit !== direction ||
      cents(e.coins) !== cents(body.coins)
    )
      ackProblems.push(
        `entry ${id}: ${e.debit_or_credit} ${e.coins} to ${e.user_id}, asked ${direction} ${body.coins} to ${body.userId}`,
      );
  }

  const refused = transfers.filter((r) => r.final && r.final.status >= 400 && r.final.status < 500);
  const refusedProblems = refused
    .filter((r) => keys.has(keyOf(r)))
    .map(
      (r) =>
        `key ${r.spec.idempotencyKey}: answered ${r.final!.status} but moved coins (entry ${keys.get(keyOf(r))})`,
    );

  const replays = records.filter((r) => r.kind === 'replay-transfer' && r.final);
  const replayProblems = replays
    .filter(
      (r) =>
        r.final!.status !== 200 ||
        r.final!.body.data.isExisting !== true ||
        r.final!.body.data.coinsLedger.id !== r.replayOf!.final!.body.data.coinsLedger.id,
    )
    .map(
      (r) =>
        `replay of key ${r.spec.idempotencyKey}: ${r.final!.status} ${JSON.stringify(r.final!.body).slice(0, 200)}`,
    );

  const sent = new Set([...transfers, ...records.filter((r) => r.kind === 'resolve-pending')].map(keyOf));
  const explained = new Set([...keys].filter(([k]) => sent.has(k)).map(([, id]) => id));
  for (const id of await entriesOfHoldsAndLots(books, explained)) explained.add(id);
  const phantoms = [...entries.keys()].filter((id) => !explained.has(id) && !rewarded.has(id));

  const unanswered = records.filter((r) => !r.final);
  return [
    check(
      'every acknowledged transfer in the ledger once, as asked',
      `${acked.length} acknowledged`,
      ackProblems,
    ),
    check('a refused transfer moved nothing', `${refused.length} refused (4xx)`, refusedProblems),
    check('a replayed key returns its first entry', `${replays.length} replays`, replayProblems),
    check(
      'every entry explained by one key or one reward',
      `${entries.size} entries, ${explained.size} by keys, ${rewarded.size} by rewards`,
      phantoms.map(
        (id) => `entry ${id} (${JSON.stringify(entries.get(id))}) has no key a client sent and no reward`,
      ),
    ),
    check(
      'every request answered after healing',
      `${records.length - unanswered.length} of ${records.length}`,
      unanswered.map(
        (r) => `${r.kind} ${r.spec.method} ${r.spec.path}: no definitive answer after ${r.attempts} attempts`,
      ),
    ),
  ];
}
