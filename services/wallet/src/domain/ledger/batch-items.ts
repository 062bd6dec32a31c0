import type { wallet } from '@coin/contracts';
import type { AuditedChange } from '@coin/events';
import type { Party } from '../parties/directory.ts';
import type { EntryRecord } from './entry-view.ts';

export type Direction = 'to_user' | 'from_user';

interface Keyed {
  partnerId: string;
  userId: string;
  idempotency?: { key: string; requestHash: string };
  traceContext: Record<string, string>;
}

/** A transfer to or from a user's wallet, a reversal, or (with `pending`) coins held for a user. */
export interface TransferCommand extends Keyed {
  direction: Direction;
  /** Exact decimal text, two places. */
  coins: string;
  narration: string;
  from: Party;
  to: Party;
  /** The entry pays a rule's reward (its reversal also takes the points back). */
  ruleReward?: boolean;
  /** A reversal: the original entry's id; user, direction and coins are the original's, swapped. */
  reverses?: { entryId: string; reason: string | null };
  /** The audit log entry written in the same transaction when the command is done (a reversal). */
  audit?: AuditedChange;
  /** Held for the user instead of credited (to_user only): resolves by itself at `expiresAt`, if any. */
  pending?: { expiresAt: string | null; onExpiry: 'void' | 'post' };
  /** A credit's validity: it opens a lot that expires then (absent: the partner's default, if any). */
  validity?: Validity;
}

type Validity = wallet.Validity;

/** A user's credit lots that are due, expired by the expiry job. */
export interface ExpireLotsCommand extends Keyed {
  op: 'expire_lots';
}

/** A pending transfer posted (all of it, or `coins`), voided, or expired by the expiry job. */
export interface PendingCommand extends Keyed {
  op: 'post' | 'void' | 'expire';
  pendingId: string;
  coins?: string;
  narration?: string;
  reason?: string | null;
}

export type LedgerCommand = TransferCommand | PendingCommand | ExpireLotsCommand;

/** What the batch function answers for an item it refused, or left alone (`skipped`). */
export type Refused =
  | 'in_progress'
  | 'conflict'
  | 'insufficient'
  | 'already_reversed'
  | 'limit_reached'
  | 'not_found'
  | 'already_posted'
  | 'already_voided'
  | 'already_expired'
  | 'expired'
  | 'exceeds'
  | 'skipped';

export type TransferOutcome =
  | { outcome: 'done' | 'replay'; entry: EntryRecord; released?: EntryRecord }
  | { outcome: Refused };

const isPending = (c: LedgerCommand): c is PendingCommand => 'op' in c && c.op !== 'expire_lots';

/** The item of `wallet_apply_ledger_batch` (its type `wallet_batch_item`) for a command. */
export function batchItem(c: LedgerCommand, item: number): Record<string, unknown> {
  const common = {
    item,
    partner_id: c.partnerId,
    user_id: c.userId,
    idempotency_key: c.idempotency?.key ?? null,
    request_hash: c.idempotency?.requestHash ?? null,
    trace_context: c.traceContext,
  };
  if ('op' in c && c.op === 'expire_lots') return { ...common, op: c.op };
  if (isPending(c))
    return {
      ...common,
      op: c.op,
      pending_id: c.pendingId,
      coins: c.coins ?? null,
      narration: c.narration ?? null,
      reason: c.reason ?? null,
    };
  return {
    ...common,
    direction: c.direction,
    coins: c.coins,
    narration: c.narration,
    from_party: c.from,
    to_party: c.to,
    rule_reward: c.ruleReward ?? false,
    reverses: c.reverses?.entryId ?? null,
    reason: c.reverses?.reason ?? null,
    validity: c.validity ?? null,
    ...(c.pending ? { op: 'hold', expires_at: c.pending.expiresAt, on_expiry: c.pending.onExpiry } : {}),
  };
}
