import { randomUUID } from 'node:crypto';
import { EVENT_SUBJECTS, type RuleCapReachedEvent, type wallet } from '@coin/contracts';
import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { AppError } from '@coin/errors';
import { addToOutbox } from '@coin/events';
import type { z } from 'zod';
import { refusalOf } from './refusals.ts';

export type CoinsLedger = z.infer<typeof wallet.transferLedgerEntrySchema>;

/**
 * Where a reward is kept: `participations` (one per user and rule, for a rule without a limit) or
 * `rule_rewards` (each reward of a limited rule). Both have the same columns the payment reads.
 */
export type RewardTable = 'participations' | 'rule_rewards';

/** One reward of a user by a rule: `pending` until the wallet has paid it, then `paid`. */
export interface Participation {
  table: RewardTable;
  id: string;
  partnerId: string;
  ruleId: string;
  ruleName: string;
  userId: string;
  coins: string;
  status: 'pending' | 'paid';
  coinsLedger: CoinsLedger | null;
}

export interface ParticipationRow {
  id: string;
  partner_id: string;
  rule_id: string;
  rule_name: string;
  user_id: string;
  coins: string;
  status: 'pending' | 'paid';
  coins_ledger: CoinsLedger | null;
}

export const PARTICIPATION_COLUMNS = `p.id, p.partner_id, p.rule_id, r.name AS rule_name, p.user_id,
  p.coins::text AS coins, p.status, p.coins_ledger`;

export function toParticipation(row: ParticipationRow, table: RewardTable): Participation {
  return {
    table,
    id: row.id,
    partnerId: row.partner_id,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    userId: row.user_id,
    coins: row.coins,
    status: row.status,
    coinsLedger: row.coins_ledger,
  };
}

export async function findParticipation(
  em: EntityManager,
  ruleId: string,
  userId: string,
): Promise<Participation | undefined> {
  const row = await boundRow<ParticipationRow>(
    em,
    `SELECT ${PARTICIPATION_COLUMNS} FROM participations p JOIN rules r ON r.id = p.rule_id
      WHERE p.rule_id = $1 AND p.user_id = $2`,
    [ruleId, userId],
  );
  return row && toParticipation(row, 'participations');
}

/** A reward by its id, in its table. */
export async function findReward(
  em: EntityManager,
  table: RewardTable,
  id: string,
): Promise<Participation | undefined> {
  const row = await boundRow<ParticipationRow>(
    em,
    `SELECT ${PARTICIPATION_COLUMNS} FROM ${table} p JOIN rules r ON r.id = p.rule_id WHERE p.id = $1`,
    [id],
  );
  return row && toParticipation(row, table);
}

export interface ClaimedRule {
  id: string;
  partnerId: string;
  name: string;
}

/**
 * Takes one of the rule's places for the user, in one transaction: the participation row (unique per
 * rule and user) and the rule's counters, raised only while the cap and the budget allow. Concurrent
 * claims queue on the rule's row, so both are exact whatever the number of requests or replicas. The
 * claim that takes the last place publishes `ruleCapReached` in the same transaction (`capReached`:
 * the caller wakes the outbox relay). Returns the existing participation instead when the user
 * already has one.
 */
export async function claimParticipation(
  em: EntityManager,
  rule: ClaimedRule,
  userId: string,
  firstRetryInMs: number,
): Promise<{ participation: Participation; created: boolean; capReached: boolean }> {
  const claimed = await em.transactional(async (tx) => {
    const id = randomUUID();
    const inserted = await boundQuery<{ id: string }>(
      tx,
      `INSERT INTO participations (id, partner_id, rule_id, user_id, coins, status, next_attempt_at)
       SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, coin_value, 'pending',
              clock_timestamp() + $5::float8 * interval '1 millisecond'
         FROM rules WHERE id = $6
       ON CONFLICT (rule_id, user_id) DO NOTHING RETURNING id`,
      [id, rule.partnerId, rule.id, userId, firstRetryInMs, rule.id],
    );
    if (inserted.length === 0) return { created: false, capReached: false };
    const counted = await countClaim(tx, rule, true);
    return { created: true, capReached: counted.full };
  });
  const participation = await findParticipation(em, rule.id, userId);
  if (!participation) throw AppError.internal('participation vanished after its claim');
  return { participation, ...claimed };
}

/**
 * Raises the rule's counters for one reward, in the claim's transaction: a place under the cap when
 * the user is new to the rule, and the coins against its budget, only while both allow; otherwise
 * throws the refusal. The claim that takes the last place publishes `ruleCapReached`.
 */
export async function countClaim(
  tx: EntityManager,
  rule: ClaimedRule,
  newUser: boolean,
): Promise<{ full: boolean }> {
  const counted = await boundRow<{ full: boolean; max_participants: number; at: string }>(
    tx,
    `UPDATE rules SET participants = participants + $2::int, spent = spent + coin_value
      WHERE id = $1 AND status = 'active' AND participants + $2::int <= max_participants
        AND (budget IS NULL OR spent + coin_value <= budget)
      RETURNING $2::int = 1 AND participants = max_participants AS full, max_participants,
        clock_timestamp() AS at`,
    [rule.id, newUser ? 1 : 0],
  );
  if (!counted) throw await refusalOf(tx, rule, newUser);
  if (counted.full) {
    const event: Omit<RuleCapReachedEvent, 'eventId'> = {
      partnerId: rule.partnerId,
      ruleId: rule.id,
      ruleName: rule.name,
      maxParticipants: counted.max_participants,
      reachedAt: new Date(counted.at).toISOString(),
    };
    await addToOutbox(tx, { subject: EVENT_SUBJECTS.ruleCapReached, payload: event });
  }
  return { full: counted.full };
}

/**
 * Records the wallet's ledger entry on a pending participation. Returns true when this call made it
 * paid (and so must publish the reward), false when another attempt already had.
 */
export async function markPaid(
  tx: EntityManager,
  p: Pick<Participation, 'table' | 'id'>,
  coinsLedger: CoinsLedger,
): Promise<{ paidAt: string } | undefined> {
  const row = await boundRow<{ paid_at: string }>(
    tx,
    `UPDATE ${p.table} SET status = 'paid', ledger_entry_id = $1, coins_ledger = $2, paid_at = now()
      WHERE id = $3 AND status = 'pending' RETURNING paid_at`,
    [coinsLedger.id, JSON.stringify(coinsLedger), p.id],
  );
  return row && { paidAt: new Date(row.paid_at).toISOString() };
}

/** Gives the place back after the wallet definitively refused the payment (e.g. an unknown user). */
export async function releaseParticipation(em: EntityManager, participationId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const row = await boundRow<{ rule_id: string; coins: string }>(
      tx,
      `DELETE FROM participations WHERE id = $1 AND status = 'pending' RETURNING rule_id, coins::text`,
      [participationId],
    );
    if (row) {
      await boundQuery(
        tx,
        'UPDATE rules SET participants = participants - 1, spent = greatest(spent - $2::numeric, 0) WHERE id = $1',
        [row.rule_id, row.coins],
      );
    }
  });
}
