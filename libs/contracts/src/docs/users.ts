import { duplicate, NOT_YOUR_USER, notFound } from './errors.ts';
import { EXAMPLE, FIRST_PAGE, type OperationDocs, onePage } from './types.ts';

const tier = { id: EXAMPLE.tierId, name: 'gold', rank: 2, createdAt: EXAMPLE.at, updatedAt: EXAMPLE.at };
const storedUser = {
  id: EXAMPLE.storedUserId,
  userId: EXAMPLE.userId,
  userData: { fullname: 'Ada Lovelace', email: 'ada@example.com' },
  createdAt: EXAMPLE.at,
  updatedAt: EXAMPLE.at,
};
const request = {
  id: EXAMPLE.requestId,
  status: 'done',
  usersCount: 2,
  processedCount: 2,
  failedCount: 1,
  createdAt: EXAMPLE.at,
  completedAt: EXAMPLE.at,
};

export const onboardingDocs: Record<string, OperationDocs> = {
  onboardUsers: {
    description:
      'Validates the whole body at once (a bad `users[i].userId` is named), stores the request and answers straight away; the users are stored in the background. When every user has been handled, one `USER_ONBOARDING` webhook lists the failures. A userId is unique per partner: one already onboarded fails with a uniqueness reason.',
    request: {
      users: [
        { userId: EXAMPLE.userId, userData: { fullname: 'Ada Lovelace', email: 'ada@example.com' } },
        { userId: '3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b', userData: {} },
      ],
    },
  },
  getOnboardingRequest: {
    description:
      'How an onboard-users request is going: `processedCount` of `usersCount` handled, `failedCount` failed, and the failures a page at a time (`page`, `limit`). `id` is the last segment of the onboard-users `Location` and the webhook\u2019s `requestId`.',
    errors: { 404: notFound('no request of yours has this id') },
    query: FIRST_PAGE,
    response: {
      ...request,
      failures: onePage([
        {
          user: EXAMPLE.userId,
          reason: 'userId is already onboarded for this partner (uniqueness violation)',
        },
      ]),
    },
  },
  listOnboardingRequests: {
    description: 'Your onboard-users requests, newest first, each with its progress.',
    query: FIRST_PAGE,
    response: onePage([request]),
  },
  listUsers: {
    description: 'Your onboarded users, newest first (`count` is how many you have).',
    query: FIRST_PAGE,
    response: onePage([{ ...storedUser, tierId: null }]),
  },
  getPartnerUser: {
    description: 'One of your onboarded users, with its tier.',
    errors: { 404: notFound(NOT_YOUR_USER) },
    response: { ...storedUser, tierId: EXAMPLE.tierId },
  },
  createTier: {
    description:
      'Defines a tier. Names are unique among your tiers, ignoring case. With `minCoins`, a tier rule: a user whose coins earned in your rolling window reach it moves up to this tier, and is reviewed at the end of each period by your tier policy.',
    errors: { 409: duplicate('you already have a tier with this name') },
    request: { name: 'gold', rank: 2, minCoins: 500 },
    response: { ...tier, minCoins: 500 },
  },
  getTierPolicy: {
    description:
      'How your tiers with a threshold follow earnings: coins credited in the last `windowDays` (UTC days) count; a user is reviewed `periodDays` after entering a tier; `downgrade` is `one_level` (down one tier when the window no longer reaches the tier) or `reevaluate` (to the tier the window reaches). Until set: 365, 365, `reevaluate`.',
    response: { windowDays: 365, periodDays: 365, downgrade: 'reevaluate' },
  },
  setTierPolicy: {
    description:
      'Sets your tier policy. The window and the downgrade apply at once; a new period to reviews scheduled from then on.',
    request: { windowDays: 90, periodDays: 30, downgrade: 'one_level' },
    response: { windowDays: 90, periodDays: 30, downgrade: 'one_level' },
  },
  listTiers: {
    description: 'Your tiers, by rank.',
    query: FIRST_PAGE,
    response: onePage([tier]),
  },
  upgradeTier: {
    description:
      'Moves one of your users to one of your tiers (up or down; `USER_TIER_CHANGED` says `movedBy: partner`). In a tier with a threshold, the user\u2019s period starts again. `partnerId`, when sent, must be yours.',
    errors: {
      404: notFound(NOT_YOUR_USER, 'no tier of yours has this id', '`partnerId` is not yours'),
    },
    request: { userId: EXAMPLE.userId, tierId: EXAMPLE.tierId },
    response: {},
  },
};

export const leaderboardDocs: Record<string, OperationDocs> = {
  coinLeaderboard: {
    description:
      'Coins credited to each user in one calendar month (UTC), highest first; equal amounts rank by who reached them first. A transfer shows within a second (the specification allows 30 minutes); a page may be up to 250 ms old.',
    query: { type: 'earner', year: 2026, month: 11, page: 1, limit: 20, userId: EXAMPLE.userId },
    response: {
      userPosition: { userId: EXAMPLE.userId, amount: '125.50', position: 1 },
      ...onePage([{ userId: EXAMPLE.userId, coins: '125.50' }]),
      count: '1',
    },
  },
  pointsLeaderboard: {
    description:
      'All-time points of each of your users (earned by rule rewards), highest first; a page may be up to 250 ms old.',
    errors: { 404: notFound('`partnerId` is not yours') },
    query: { page: 1, take: 20, userId: EXAMPLE.userId },
    response: {
      userPosition: { userId: EXAMPLE.userId, amount: 100, position: 1 },
      ...onePage([
        {
          id: EXAMPLE.storedUserId,
          points: 100,
          createdAt: EXAMPLE.at,
          updatedAt: EXAMPLE.at,
          user: storedUser,
        },
      ]),
    },
  },
  ping: {
    description: 'Answered by the leaderboard service itself through the same path as the boards.',
    response: { service: 'leaderboard', time: EXAMPLE.at },
  },
};

const delivery = {
  id: EXAMPLE.deliveryId,
  event: 'USER_ONBOARDING',
  eventId: EXAMPLE.eventId,
  status: 'failed',
  attempts: 8,
  lastStatusCode: 500,
  sequence: 7,
  lastError: 'HTTP 500',
  nextAttemptAt: null,
  deliveredAt: null,
  createdAt: EXAMPLE.at,
  attemptLog: [
    {
      attempt: 1,
      url: 'https://demo.example/hooks',
      startedAt: EXAMPLE.at,
      finishedAt: EXAMPLE.at,
      statusCode: 500,
      error: 'HTTP 500',
      durationMs: 42,
      manual: false,
    },
  ],
};

export const webhooksDocs: Record<string, OperationDocs> = {
  listDeliveries: {
    description: 'Your webhook deliveries, newest first, each with every attempt; `status` filters.',
    query: { status: 'failed', ...FIRST_PAGE },
    response: onePage([delivery]),
  },
  retryDelivery: {
    description:
      'Makes one more attempt now, to your current URL with your current secret, and re-enables a URL disabled by 410. For a `pending` delivery it is an extra attempt (`manual: true` in its log): it spends none of the automatic attempts and, if it fails, the delivery is due again exactly when it was before; asking while an attempt (yours or an automatic one) is under way does nothing more. A `failed` delivery becomes `pending` with one automatic attempt: if that fails too, it is `failed` again.',
    errors: { 404: notFound('no delivery of yours has this id') },
    response: { ...delivery, status: 'pending', nextAttemptAt: EXAMPLE.at },
  },
  listEventKinds: {
    description:
      'Every kind of event your webhook URL can receive, with a description and the JSON Schema of its body. Subscribe to some with `events` on `PUT /api/v1/ufel/partners/webhook`.',
    response: {
      data: [
        {
          event: 'COINS_TRANSFERRED',
          description: 'One per transfer to or from a user (rule rewards included).',
          schema: { type: 'object', properties: { event: { const: 'COINS_TRANSFERRED' } } },
        },
      ],
    },
  },
};
