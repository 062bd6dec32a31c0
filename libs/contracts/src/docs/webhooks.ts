import { type EventKind, type EventPayload, TREASURY_LOW_SHARE } from '../webhooks.ts';
import { EXAMPLE } from './types.ts';

interface EventDoc<K extends EventKind> {
  summary: string;
  description: string;
  example: EventPayload<K>;
}

const common = { status: 'success', occurredAt: EXAMPLE.at, sequence: 42 } as const;

const RETRIES =
  'Verify the signature against the raw body before parsing it; answer any 2xx within 15 s. Anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; 410 Gone disables the URL.';

/** The events sent to a partner's webhook URL (OpenAPI `webhooks`), with what the headers mean. */
export const webhookDocs = {
  events: {
    USER_ONBOARDING: {
      summary: 'An onboard-users request has been processed',
      description: `One per onboard-users request, once every user of it has been handled. \`requestId\` is the request\u2019s id (the \`Location\` of the onboard-users answer). \`failed\` lists every user not onboarded, in request order. ${RETRIES}`,
      example: {
        event: 'USER_ONBOARDING',
        ...common,
        requestId: EXAMPLE.requestId,
        failed: [
          {
            user: EXAMPLE.userId,
            reason: 'userId is already onboarded for this partner (uniqueness violation)',
          },
        ],
      },
    },
    COINS_TRANSFERRED: {
      summary: 'Coins moved between you and a user',
      description: `One per transfer to or from a user (rule rewards included). \`debitOrCredit\` is the user\u2019s side: \`CR\` when coins reached the user. ${RETRIES}`,
      example: {
        event: 'COINS_TRANSFERRED',
        ...common,
        ledgerEntryId: EXAMPLE.entryId,
        userId: EXAMPLE.userId,
        transactionType: 'partner_user_transfer',
        debitOrCredit: 'CR',
        coins: 12.5,
      },
    },
    COINS_REVERSED: {
      summary: 'A ledger entry was reversed',
      description: `One per reversal. \`ledgerEntryId\` is the correcting entry, \`reversedEntryId\` the original; \`debitOrCredit\` is the correcting entry\u2019s side for the user. ${RETRIES}`,
      example: {
        event: 'COINS_REVERSED',
        ...common,
        ledgerEntryId: EXAMPLE.entryId,
        userId: EXAMPLE.userId,
        debitOrCredit: 'DE',
        coins: 12.5,
        reversedEntryId: EXAMPLE.eventId,
      },
    },
    RULE_CAP_REACHED: {
      summary: 'A rule has rewarded as many users as it may',
      description: `Sent when the reward that takes a rule\u2019s last place is recorded; rewards of further users are refused (422 \`RULE_CAP_REACHED\`). Sent again if a place is given back (a reward the wallet refused) and taken again. ${RETRIES}`,
      example: {
        event: 'RULE_CAP_REACHED',
        ...common,
        ruleId: EXAMPLE.ruleId,
        ruleName: 'first purchase',
        maxNumberOfParticipant: 100,
      },
    },
    USER_TIER_CHANGED: {
      summary: 'A user was moved to another tier',
      description: `One per move of a user to another tier: an upgrade-tier call that changes the user\u2019s tier (\`movedBy: partner\`; moving a user to the tier it is in sends nothing), or a tier rule (\`movedBy: rule\`): earnings that reach a higher tier\u2019s threshold, or the review at the end of a period. \`previousTierId\` is null when the user had no tier. ${RETRIES}`,
      example: {
        event: 'USER_TIER_CHANGED',
        ...common,
        userId: EXAMPLE.userId,
        tierId: EXAMPLE.tierId,
        tierName: 'gold',
        previousTierId: null,
        movedBy: 'rule',
      },
    },
    TREASURY_LOW: {
      summary: `Outstanding coins reached ${TREASURY_LOW_SHARE * 100} % of your issuance limit`,
      description: `Sent by the transfer (or reward) that takes your outstanding coins from below ${TREASURY_LOW_SHARE * 100} % of your issuance limit to at or above it: once per upward crossing. Falling below again (redemptions, reversals, a higher limit) re-arms it; changing the limit itself sends nothing. ${RETRIES}`,
      example: {
        event: 'TREASURY_LOW',
        ...common,
        outstanding: 8000,
        issuanceLimit: 10000,
        threshold: TREASURY_LOW_SHARE,
      },
    },
    COINS_PENDING: {
      summary: 'Coins are held for a user by a pending transfer',
      description: `One per pending transfer created (by a transfer to a user with \`pending\`, or a reward paid pending). The coins have left you (they count against your issuance limit) but the user cannot spend them until the transfer is posted. \`pendingTransferId\` is also the id of its \`pending_transfer\` ledger entry; \`expiresAt\` (null: none) is when \`onExpiry\` applies by itself. ${RETRIES}`,
      example: {
        event: 'COINS_PENDING',
        ...common,
        pendingTransferId: EXAMPLE.entryId,
        ledgerEntryId: EXAMPLE.entryId,
        userId: EXAMPLE.userId,
        coins: 40,
        expiresAt: '2026-12-07T08:30:00.000Z',
        onExpiry: 'post',
      },
    },
    COINS_PENDING_POSTED: {
      summary: "A pending transfer was posted to the user's wallet",
      description: `One per pending transfer posted, by you or by its expiry (\`resolvedBy\`). \`ledgerEntryId\` credited \`coins\` to the user (a \`partner_user_transfer\`, so a COINS_TRANSFERRED goes out for it too); a post for less gave \`releasedCoins\` back to you by \`releasedEntryId\`. ${RETRIES}`,
      example: {
        event: 'COINS_PENDING_POSTED',
        ...common,
        pendingTransferId: EXAMPLE.entryId,
        ledgerEntryId: EXAMPLE.eventId,
        userId: EXAMPLE.userId,
        coins: 30,
        releasedCoins: 10,
        releasedEntryId: EXAMPLE.deliveryId,
        resolvedBy: 'partner',
      },
    },
    COINS_PENDING_VOIDED: {
      summary: 'A pending transfer was voided: its coins came back to you',
      description: `One per pending transfer voided by you (\`resolvedBy: partner\`) or by its expiry (\`resolvedBy: expiry\`; the transfer's status is then \`expired\`). \`ledgerEntryId\` is the \`pending_void\` entry that gave all \`coins\` back. ${RETRIES}`,
      example: {
        event: 'COINS_PENDING_VOIDED',
        ...common,
        pendingTransferId: EXAMPLE.entryId,
        ledgerEntryId: EXAMPLE.eventId,
        userId: EXAMPLE.userId,
        coins: 40,
        resolvedBy: 'expiry',
      },
    },
    COINS_EXPIRING: {
      summary: "Some of a user's coins expire soon",
      description: `Told once per credit lot, WALLET_EXPIRY_WARNING_DAYS (7 by default) before it expires, grouped per user: \`coins\` is what the lots still hold, the soonest expiring at \`expiresAt\`. Spending before then takes from these lots first. ${RETRIES}`,
      example: {
        event: 'COINS_EXPIRING',
        ...common,
        userId: EXAMPLE.userId,
        coins: 25,
        expiresAt: '2026-12-01T00:00:00.000Z',
        lots: [{ lotId: EXAMPLE.entryId, coins: 25, expiresAt: '2026-12-01T00:00:00.000Z' }],
      },
    },
    COINS_EXPIRED: {
      summary: "What was left of a user's credit expired",
      description: `One per credit lot that reached its expiry with coins left: \`ledgerEntryId\` is the \`expiry\` entry that took \`coins\` back from the user's wallet to you; \`lotId\` is the credit's own entry. ${RETRIES}`,
      example: {
        event: 'COINS_EXPIRED',
        ...common,
        ledgerEntryId: EXAMPLE.eventId,
        userId: EXAMPLE.userId,
        lotId: EXAMPLE.entryId,
        coins: 25,
        expiresAt: '2026-12-01T00:00:00.000Z',
      },
    },
  } satisfies { [K in EventKind]: EventDoc<K> },
  headers: {
    'webhook-id': 'The delivery\u2019s id, the same on every attempt: use it to ignore a repeat.',
    'webhook-timestamp': 'Seconds since the epoch at this attempt: refuse one more than 5 minutes off.',
    'webhook-signature':
      '`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of your secret after `whsec_` (Standard Webhooks). Several may be listed, space-separated.',
  },
} as const;
