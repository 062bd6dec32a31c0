import { handle } from '@coin/bus';
import { RULE_REWARD_IDEMPOTENCY_PREFIX, wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { serializeTraceContext } from '@coin/telemetry';
import type { WalletDeps } from '../deps.ts';
import type { Direction, TransferCommand } from '../domain/ledger/batch-items.ts';
import { transferEntryView } from '../domain/ledger/entry-view.ts';
import { ledgerTransfers } from '../domain/ledger/metrics.ts';
import { findPending } from '../domain/ledger/pending-transfers.ts';
import { refusal } from '../domain/ledger/refusals.ts';
import { requestHash } from '../domain/ledger/request-hash.ts';

type TransferOperation = typeof wallet.transferToUser | typeof wallet.transferFromUser;

/** When a pending transfer resolves by itself, from what the request asked; 400 when out of bounds. */
function pendingOf(options: wallet.PendingOptions): NonNullable<TransferCommand['pending']> {
  const now = Date.now();
  let at: number | null = null;
  if (options.expiresInSeconds !== undefined) at = now + options.expiresInSeconds * 1000;
  if (options.expiresAt !== undefined) {
    at = Date.parse(options.expiresAt);
    if (at <= now) throw AppError.badRequest('pending.expiresAt must be in the future');
    if (at > now + wallet.MAX_PENDING_SECONDS * 1000)
      throw AppError.badRequest(
        `pending.expiresAt must be at most ${wallet.MAX_PENDING_SECONDS} seconds ahead`,
      );
  }
  return { expiresAt: at === null ? null : new Date(at).toISOString(), onExpiry: options.onExpiry };
}

/** A validity with an instant must name one ahead, at most MAX_VALIDITY_DAYS away; 400 otherwise. */
function checkedValidity(validity: wallet.Validity | undefined): wallet.Validity | undefined {
  if (validity === undefined || !('expiresAt' in validity)) return validity;
  const at = Date.parse(validity.expiresAt);
  if (at <= Date.now()) throw AppError.badRequest('validity.expiresAt must be in the future');
  if (at > Date.now() + wallet.MAX_VALIDITY_DAYS * 86_400_000)
    throw AppError.badRequest(`validity.expiresAt must be at most ${wallet.MAX_VALIDITY_DAYS} days ahead`);
  return validity;
}

/**
 * Both transfer directions: resolve the parties, then apply the transfer in Postgres, which also
 * decides idempotency. HTTP callers and other services (rules' rewards over NATS) meet the same rules.
 * A transfer to a user with `pending` holds the coins instead (a pending transfer).
 */
export function transferHandler(deps: WalletDeps, op: TransferOperation, direction: Direction) {
  return handle(op, async ({ partnerId, body, idempotencyKey }) => {
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255))
      throw AppError.badRequest('Idempotency-Key must be 1 to 255 characters');
    const options = 'pending' in body ? body.pending : undefined;
    const pending = options && pendingOf(options);
    const asked = checkedValidity('validity' in body ? body.validity : undefined);
    const [user, partner, validity] = await Promise.all([
      deps.directory.user(partnerId, body.userId),
      deps.directory.partner(partnerId),
      // A plain credit without its own validity takes the partner's default, if any.
      direction === 'to_user' && !pending && !asked ? deps.validities.of(partnerId) : asked,
    ]);
    const userParty = await deps.directory.userParty(partner, user);
    const partnerParty = deps.directory.partnerParty(partner);
    const coins = body.coins.toFixed(2);
    const toUser = direction === 'to_user';
    const result = await deps.batcher.submit({
      partnerId,
      userId: user.userId,
      direction,
      coins,
      narration:
        body.narration ??
        (toUser ? `transfer from ${partner.partnerName}` : `transfer to ${partner.partnerName}`),
      idempotency: idempotencyKey
        ? { key: idempotencyKey, requestHash: requestHash(op.name, { ...body, coins }) }
        : undefined,
      from: toUser ? partnerParty : userParty,
      to: toUser ? userParty : partnerParty,
      traceContext: serializeTraceContext(),
      ruleReward: toUser && idempotencyKey?.startsWith(RULE_REWARD_IDEMPOTENCY_PREFIX) === true,
      pending,
      validity: validity ?? undefined,
    });
    ledgerTransfers.inc({ direction: pending ? 'pending' : direction, outcome: result.outcome });
    if (result.outcome !== 'done' && result.outcome !== 'replay') {
      if (result.outcome === 'expired' || result.outcome === 'skipped') throw AppError.internal();
      throw refusal(result.outcome);
    }
    const answer = { isExisting: result.outcome === 'replay', coinsLedger: transferEntryView(result.entry) };
    if (result.entry.transactionType !== 'pending_transfer') return answer;
    const pendingTransfer = await findPending(deps.db.em.fork(), partnerId, result.entry.id);
    return { ...answer, pendingTransfer: pendingTransfer! };
  });
}
