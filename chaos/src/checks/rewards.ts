import { apiClient } from '@coin/testing';
import { wholePointsBoard } from '../../../e2e/support/leaderboard.ts';
import type { Books } from '../books.ts';
import type { OpRecord } from '../workload/clients.ts';
import type { PartnerWorld } from '../workload/world.ts';
import { type CheckResult, cents, check, differences } from './check.ts';

interface Participation {
  partner_id: string;
  rule_id: string;
  name: string;
  max_participants: number;
  participants: number;
  coin_value: string;
  user_id: string;
  status: string;
  ledger_entry_id: string | null;
}

/**
 * Rewards: each participation paid once by one ledger entry of the rule's coins, never more users
 * than the cap (and exactly the cap where a client was told it was reached), each answered reward
 * the participation's entry, the points board equal to the rewards.
 */
export async function rewardChecks(
  books: Books,
  records: OpRecord[],
  world: PartnerWorld[],
  gatewayUrl: string,
): Promise<CheckResult[]> {
  const rows = await books.query<Participation>(
    'rules',
    `SELECT r.partner_id, r.id AS rule_id, r.name, r.max_participants, r.participants, r.coin_value::text,
            p.user_id, p.status, p.ledger_entry_id
       FROM rules r LEFT JOIN participations p ON p.rule_id = r.id WHERE r.limit_times IS NULL`,
  );
  const entries = new Map(
    (
      await books.query<{ id: string; user_id: string; debit_or_credit: string; coins: string }>(
        'wallet',
        'SELECT id, user_id, debit_or_credit, coins::text FROM ledger_entries',
      )
    ).map((e) => [e.id, e]),
  );
  const paid: string[] = [];
  const perRule = new Map<string, Participation[]>();
  for (const p of rows) {
    if (!perRule.has(p.rule_id)) perRule.set(p.rule_id, []);
    if (p.user_id) perRule.get(p.rule_id)!.push(p);
  }
  for (const p of rows.filter((r) => r.user_id)) {
    const e = p.ledger_entry_id ? entries.get(p.ledger_entry_id) : undefined;
    if (p.status !== 'paid') paid.push(`${p.name}/${p.user_id}: ${p.status}`);
    else if (
      !e ||
      e.user_id !== p.user_id ||
      e.debit_or_credit !== 'CR' ||
      cents(e.coins) !== cents(p.coin_value)
    )
      paid.push(
        `${p.name}/${p.user_id}: entry ${p.ledger_entry_id} is ${JSON.stringify(e)}, not ${p.coin_value} to the user`,
      );
  }
  const capProblems: string[] = [];
  const capsReached = new Set(
    records
      .filter((r) => r.kind === 'reward' && r.final?.body?.data?.appErrorCode === 'RULE_CAP_REACHED')
      .map((r) => `${world[r.partner].partnerId}/${(r.spec.body as { ruleName: string }).ruleName}`),
  );
  for (const list of perRule.values()) {
    const rule = rows.find((r) => r.rule_id === list[0]?.rule_id) ?? list[0];
    if (!rule) continue;
    const users = new Set(list.map((p) => p.user_id));
    if (users.size !== list.length) capProblems.push(`${rule.name}: a user rewarded twice`);
    if (list.length > rule.max_participants)
      capProblems.push(`${rule.name}: ${list.length} paid, cap ${rule.max_participants}`);
    if (list.length !== rule.participants)
      capProblems.push(`${rule.name}: counts ${rule.participants}, ${list.length} rewarded`);
    if (capsReached.has(`${rule.partner_id}/${rule.name}`) && list.length !== rule.max_participants)
      capProblems.push(
        `${rule.name}: a client was told the cap was reached, ${list.length} of ${rule.max_participants} rewarded`,
      );
  }
  const byKey = new Map(
    rows.filter((p) => p.user_id).map((p) => [`${p.partner_id}/${p.name}/${p.user_id}`, p]),
  );
  const limitedNames = new Set(world.flatMap((w) => w.rules.filter((r) => r.limited).map((r) => r.name)));
  const answered = records.filter(
    (r) =>
      r.kind === 'reward' &&
      r.final?.status === 200 &&
      !limitedNames.has((r.spec.body as { ruleName: string }).ruleName),
  );
  const answerProblems = answered.flatMap((r) => {
    const body = r.spec.body as { userId: string; ruleName: string };
    const p = byKey.get(`${world[r.partner].partnerId}/${body.ruleName}/${body.userId}`);
    const id = r.final!.body.data.coinsLedger.id;
    return p?.ledger_entry_id === id
      ? []
      : [`reward ${body.ruleName}/${body.userId} answered entry ${id}, paid ${p?.ledger_entry_id}`];
  });

  const pointsProblems: string[] = [];
  const keptProblems: string[] = [];
  const limitedPaid = await books.query<{ partner_id: string; user_id: string; coins: string }>(
    'rules',
    "SELECT partner_id, user_id, coins::text FROM rule_rewards WHERE status = 'paid'",
  );
  const stored = await books.query<{ partner_id: string; user_id: string; amount: string }>(
    'leaderboard',
    "SELECT partner_id, user_id, amount::text FROM standings WHERE board = 'points'",
  );
  const api = apiClient(gatewayUrl);
  for (const w of world) {
    const expected = new Map<string, bigint>();
    for (const p of rows.filter((r) => r.user_id && r.partner_id === w.partnerId))
      expected.set(p.user_id, (expected.get(p.user_id) ?? 0n) + cents(p.coin_value));
    for (const p of limitedPaid.filter((r) => r.partner_id === w.partnerId))
      expected.set(p.user_id, (expected.get(p.user_id) ?? 0n) + cents(p.coins));
    const board = await wholePointsBoard(api, w.token);
    const actual = new Map(board.map((e) => [e.user?.userId ?? e.id, cents(e.points)]));
    pointsProblems.push(...differences(`points of ${w.partnerId}/`, expected, actual));
    const kept = stored.filter((s) => s.partner_id === w.partnerId);
    keptProblems.push(
      ...differences(
        `stored points of ${w.partnerId}/`,
        expected,
        new Map(kept.map((s) => [s.user_id, cents(s.amount)])),
      ),
    );
  }
  const participations = rows.filter((r) => r.user_id).length;
  return [
    check('every participation paid once, by the rule coins', `${participations} participations`, paid),
    check(
      'never more users paid than a rule cap',
      `${perRule.size} rules, ${capsReached.size} told full`,
      capProblems,
    ),
    check('every answered reward is its participation', `${answered.length} answered`, answerProblems),
    check('points leaderboard equals the rewards', `${world.length} boards`, pointsProblems),
    check('points leaderboard (Postgres) equals the rewards', `${stored.length} standings`, keptProblems),
  ];
}
