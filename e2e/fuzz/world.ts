import { randomUUID } from 'node:crypto';
import { type ApiClient, eventually, type WebhookReceiver } from '@coin/testing';
import { newUsers, onboard, setWebhook } from '../support/onboarding.ts';
import { registerAndLogin } from '../support/partners.ts';
import type { FuzzWorld } from './draft.ts';

async function ok(res: Promise<{ status: number; text: string; body: any }>, what: string) {
  const r = await res;
  if (r.status !== 200) throw new Error(`fuzz set-up: ${what} answered ${r.status} ${r.text}`);
  return r.body.data;
}

/**
 * Two partners, the first with users, coins, a tier, rules, API keys and webhook deliveries: the
 * ids the generated requests draw on, so that they reach the services' real paths and the
 * boundaries between partners.
 */
export async function buildWorld(api: ApiClient, receiver: WebhookReceiver): Promise<FuzzWorld> {
  const partner = await registerAndLogin(api);
  const other = await registerAndLogin(api);
  const auth = { token: partner.accessToken };
  const apiKey = await ok(api.post('/api/v1/ufel/partners/api-keys', { name: 'fuzz' }, auth), 'api key');
  const spareKey = await ok(api.post('/api/v1/ufel/partners/api-keys', { name: 'spare' }, auth), 'api key');
  await setWebhook(api, partner, receiver.url);

  const users = newUsers(6, (i) => ({ tag: `fuzz_user_${i}`, name: `User ${i}` }));
  const otherUsers = newUsers(2);
  await onboard(api, partner, users);
  await onboard(api, other, otherUsers);
  await eventually(async () => {
    const found = await Promise.all(users.map((u) => api.get(`/api/v1/laas/users/${u.userId}`, auth)));
    return found.every((r) => r.status === 200) ? true : undefined;
  }, 30_000);

  const tier = await ok(api.post('/api/v1/laas/tiers', { name: 'gold', rank: 1 }, auth), 'tier');
  const ruleNames = ['signup', 'first_purchase'];
  const rules = [];
  for (const name of ruleNames)
    rules.push(
      await ok(
        api.post(
          '/api/v1/laas/rules/create-rule',
          { name, coinValue: '5', maxNumberOfParticipant: '4' },
          auth,
        ),
        'rule',
      ),
    );
  for (const u of users)
    await ok(
      api.post(
        '/api/v1/laas/coins/transfer-to-user-wallet',
        { userId: u.userId, coins: 100 },
        {
          ...auth,
          headers: { 'idempotency-key': randomUUID() },
        },
      ),
      'transfer',
    );
  const deliveries = await eventually(async () => {
    const r = await api.get('/api/v1/laas/webhooks/deliveries', auth);
    return r.body?.data?.data?.length ? (r.body.data.data as { id: string }[]) : undefined;
  }, 30_000);
  const session = await ok(
    api.post('/api/v1/ufel/partners/login', { email: partner.email, password: partner.password }),
    'login',
  );

  return {
    accessToken: partner.accessToken,
    apiKey: apiKey.key,
    otherAccessToken: other.accessToken,
    pools: {
      userId: [...users.map((u) => u.userId), otherUsers[0].userId],
      id: [...rules.map((r) => r.id), spareKey.id, ...deliveries.map((d) => d.id)],
      tierId: [tier.id],
      partnerId: [partner.partnerId, other.partnerId],
      ruleName: ruleNames,
      name: [...ruleNames, 'gold'],
      email: [partner.email, other.email],
      password: [partner.password],
      refreshToken: [session.tokens.refreshToken],
    },
  };
}
