import { randomUUID } from 'node:crypto';
import type { identity, onboarding, ResponseOf, webhooks } from '@coin/contracts';
import { wallet } from '@coin/contracts';

type StoredUser = onboarding.StoredUser;
type TransferReply = ResponseOf<typeof wallet.transferToUser>;

/** Identity's answer for a partner whose webhooks go to `url` (every kind unless `events` names some). */
export function partnerReply(
  partnerId: string,
  endpoint: { url: string; secret: string; events?: webhooks.EventKind[] },
): ResponseOf<typeof identity.getPartner> {
  return {
    partnerId,
    applicationName: 'Hooks test',
    partnerName: 'Hooks Test Ltd',
    email: 'hooks@example.com',
    userDetailsUrl: 'https://partner.example/users',
    webhookUrl: endpoint.url,
    webhookSecret: endpoint.secret,
    webhookEvents: endpoint.events ?? null,
  };
}

/** Onboarding's answer for a stored user with no data and no tier, as a stand-in gives it. */
export function storedUserReply(userId: string): StoredUser {
  const at = new Date().toISOString();
  return { id: randomUUID(), userId, userData: {}, tierId: null, createdAt: at, updatedAt: at };
}

/** The wallet's answer to a transfer to `userId`, as a stand-in gives it. */
export function transferReply(t: {
  partnerId: string;
  userId: string;
  coins: number;
  narration?: string;
  isExisting?: boolean;
}): TransferReply {
  const at = new Date().toISOString();
  const party = (id: string) => ({
    id,
    fullname_businessName: 'x',
    email: 'x@example.com',
    tag: null,
    userId: id,
  });
  return {
    isExisting: t.isExisting ?? false,
    coinsLedger: {
      id: randomUUID(),
      userId: t.userId,
      debitOrCredit: 'CR',
      coins: t.coins,
      claimed: false,
      transactionType: 'transfer',
      narration: t.narration ?? '',
      from: party(t.partnerId),
      to: party(t.userId),
      ...wallet.ledgerEntryNotOffered,
      refunded: false,
      balanceAfter: t.coins,
      createdAt: at,
      updatedAt: at,
      reversed: false,
      status: 'Success',
      token: null,
    },
  };
}
