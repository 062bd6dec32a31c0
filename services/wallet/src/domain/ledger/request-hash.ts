import { createHash } from 'node:crypto';

/**
 * What an idempotency key is bound to: the operation and the body as the ledger sees it (coins as
 * exact text), so `1` and `1.0` are the same request and a key reused on the other direction is not.
 */
export function requestHash(operation: string, body: { userId: string; coins: string; narration?: string }) {
  return createHash('sha256')
    .update(JSON.stringify([operation, body.userId.toLowerCase(), body.coins, body.narration ?? null]))
    .digest('hex');
}

/** What a reversal's idempotency key is bound to: the entry it reverses and the reason. */
export function reversalRequestHash(body: { ledgerEntryId: string; reason?: string }) {
  return createHash('sha256')
    .update(JSON.stringify(['reverseTransfer', body.ledgerEntryId.toLowerCase(), body.reason ?? null]))
    .digest('hex');
}
