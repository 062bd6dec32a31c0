import type { Books } from '../books.ts';
import type { OpRecord } from '../workload/clients.ts';
import type { PartnerWorld } from '../workload/world.ts';
import { type CheckResult, cents, check } from './check.ts';

interface LimitedRuleRow {
  id: string;
  partner_id: string;
  name: string;
  limit_times: number;
  budget: string;
  spent: string;
  coin_value: string;
  participants: number;
}

interface RewardRow {
  rule_id: string;
  user_id: string;
  period_start: string;
  status: string;
  coins: string;
  ledger_entry_id: string | null;
}

/**
 * Limited rules (a per-user daily limit and a budget): every reward paid once by its own ledger
 * entry, no user paid more than the limit in a period, no rule paid more than its budget (and all of
 * it where a client was told it was spent), the rule's counters equal to its rewards, and every
 * answered reward one of the user's paid entries, each key its own.
 */
export async function limitedRewardChecks(
  books: Books,
  records: OpRecord[],
  world: PartnerWorld[],
): Promise<CheckResult[]> {
  const rules = await books.query<LimitedRuleRow>(
    'rules',
    `SELECT id, partner_id, name, limit_times, budget::text, spent::text, coin_value::text, participants
       FROM rules WHERE limit_times IS NOT NULL`,
  );
  const rewards = await books.query<RewardRow>(
    'rules',
    `SELECT rule_id, user_id, period_start::text, status, coins::text, ledger_entry_id FROM rule_rewards`,
  );
  const counts = await books.query<{ rule_id: string; user_id: string; period_start: string; times: number }>(
    'rules',
    'SELECT rule_id, user_id, period_start::text, times FROM rule_user_periods',
  );
  const entries = new Map(
    (
      await books.query<{ id: string; user_id: string; debit_or_credit: string; coins: string }>(
        'wallet',
        'SELECT id, user_id, debit_or_credit, coins::text FROM ledger_entries',
      )
    ).map((e) => [e.id, e]),
  );
  const paidProblems: string[] = [];
  const limitProblems: string[] = [];
  const budgetProblems: string[] = [];
  const toldSpent = new Set(
    records
      .filter((r) => r.kind === 'reward' && r.final?.body?.data?.appErrorCode === 'RULE_BUDGET_EXHAUSTED')
      .map((r) => `${world[r.partner].partnerId}/${(r.spec.body as { ruleName: string }).ruleName}`),
  );
  const entryIds = new Set<string>();
  for (const rule of rules) {
    const own = rewards.filter((r) => r.rule_id === rule.id);
    const perPeriod = new Map<string, number>();
    for (const r of own) {
      const e = r.ledger_entry_id ? entries.get(r.ledger_entry_id) : undefined;
      if (r.status !== 'paid') paidProblems.push(`${rule.name}/${r.user_id}: ${r.status}`);
      else if (
        !e ||
        e.user_id !== r.user_id ||
        e.debit_or_credit !== 'CR' ||
        cents(e.coins) !== cents(r.coins)
      )
        paidProblems.push(`${rule.name}/${r.user_id}: entry ${r.ledger_entry_id} is ${JSON.stringify(e)}`);
      if (r.ledger_entry_id && entryIds.has(r.ledger_entry_id))
        paidProblems.push(`${rule.name}: entry ${r.ledger_entry_id} pays two rewards`);
      if (r.ledger_entry_id) entryIds.add(r.ledger_entry_id);
      const key = `${r.user_id}@${r.period_start}`;
      perPeriod.set(key, (perPeriod.get(key) ?? 0) + 1);
    }
    for (const [key, n] of perPeriod) {
      if (n > rule.limit_times)
        limitProblems.push(`${rule.name}: ${key} rewarded ${n} times, limit ${rule.limit_times}`);
      const [userId, period] = key.split('@');
      const counted = counts.find(
        (c) => c.rule_id === rule.id && c.user_id === userId && c.period_start === period,
      );
      if (counted?.times !== n)
        limitProblems.push(`${rule.name}: ${key} counted ${counted?.times}, ${n} rewarded`);
    }
    const users = new Set(own.map((r) => r.user_id)).size;
    if (users !== rule.participants)
      limitProblems.push(`${rule.name}: ${rule.participants} places, ${users} users`);
    const total = own.reduce((sum, r) => sum + cents(r.coins), 0n);
    if (total > cents(rule.budget))
      budgetProblems.push(`${rule.name}: paid ${total} cents, budget ${rule.budget}`);
    if (total !== cents(rule.spent))
      budgetProblems.push(`${rule.name}: spent ${rule.spent}, rewards ${total} cents`);
    if (
      toldSpent.has(`${rule.partner_id}/${rule.name}`) &&
      total + cents(rule.coin_value) <= cents(rule.budget)
    )
      budgetProblems.push(
        `${rule.name}: a client was told the budget was spent, ${total} cents of ${rule.budget}`,
      );
  }
  const limited = new Set(rules.map((r) => `${r.partner_id}/${r.name}`));
  const answered = records.filter(
    (r) =>
      r.kind === 'reward' &&
      r.final?.status === 200 &&
      limited.has(`${world[r.partner].partnerId}/${(r.spec.body as { ruleName: string }).ruleName}`),
  );
  const answerProblems: string[] = [];
  const answeredIds = new Map<string, string>();
  for (const r of answered) {
    const id = r.final!.body.data.coinsLedger.id as string;
    if (!entryIds.has(id)) answerProblems.push(`key ${r.spec.idempotencyKey}: entry ${id} pays no reward`);
    const other = answeredIds.get(id);
    if (other && other !== r.spec.idempotencyKey)
      answerProblems.push(`keys ${other} and ${r.spec.idempotencyKey} answered the same entry ${id}`);
    answeredIds.set(id, r.spec.idempotencyKey ?? '');
  }
  return [
    check('every limited reward paid once, by its own entry', `${rewards.length} rewards`, paidProblems),
    check('no user rewarded over a rule limit in a period', `${rules.length} limited rules`, limitProblems),
    check(
      'no rule paid over its budget (all of it where told spent)',
      `${toldSpent.size} told spent`,
      budgetProblems,
    ),
    check(
      'every answered limited reward is its own paid entry',
      `${answered.length} answered`,
      answerProblems,
    ),
  ];
}
