import { type ApiResponse, apiClient, type WebhookReceiver } from '@coin/testing';
import { registerAndLogin } from '../../../e2e/support/partners.ts';
import type { SeededUuids } from './seeded-uuids.ts';

export interface PartnerWorld {
  partnerId: string;
  token: string;
  /** Stored before the faults start: the users transfers, rewards and tier moves are about. */
  users: string[];
  rules: { name: string; cap: number; coinValue: string; limited?: LimitedRule }[];
  tiers: string[];
  /** The setup's onboarding request (its webhook is checked like the workload's). */
  setupRequest: { requestId: string; users: string[] };
}

const USERS_PER_PARTNER = 12;

/** A rule that pays a user twice a day at most, from a budget smaller than every user's limit. */
interface LimitedRule {
  userLimit: { times: number; per: 'day' };
  budget: string;
}

/** Small caps: rewards on the same rule race for the last places; the last one races for its budget. */
const RULES: { cap: number; coinValue: string; limited?: LimitedRule }[] = [
  { cap: 2, coinValue: '5' },
  { cap: 4, coinValue: '2.5' },
  { cap: 7, coinValue: '1.25' },
  {
    cap: USERS_PER_PARTNER,
    coinValue: '1.5',
    limited: { userLimit: { times: 2, per: 'day' }, budget: '4.5' },
  },
];

async function ok(what: string, res: Promise<ApiResponse>): Promise<ApiResponse> {
  const r = await res;
  if (r.status !== 200) throw new Error(`setup: ${what} answered ${r.status} ${r.text}`);
  return r;
}

/** Partners with their webhook at the receiver, users stored, rules with small caps, tiers. */
export async function buildWorld(
  gatewayUrl: string,
  receiver: WebhookReceiver,
  partners: number,
  uuid: SeededUuids,
): Promise<PartnerWorld[]> {
  const api = apiClient(gatewayUrl);
  const world: PartnerWorld[] = [];
  for (let p = 0; p < partners; p++) {
    const partner = await registerAndLogin(api);
    const token = partner.accessToken;
    await ok('webhook', api.put('/api/v1/ufel/partners/webhook', { url: receiver.url }, { token }));
    const users = Array.from({ length: USERS_PER_PARTNER }, () => uuid());
    const onboard = await ok(
      'onboard',
      api.post(
        '/api/v1/laas/onboard-users',
        { users: users.map((userId) => ({ userId, userData: {} })) },
        { token },
      ),
    );
    const location = String(onboard.headers.location ?? '');
    const requestId = location.split('/').pop() ?? '';
    for (;;) {
      const r = await api.get(`/api/v1/laas/onboarding-requests/${requestId}`, { token });
      if (r.status === 200 && r.body.data.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const rules = [];
    for (const [i, rule] of RULES.entries()) {
      const name = `chaos rule ${i}`;
      await ok(
        'create rule',
        api.post(
          '/api/v1/laas/rules/create-rule',
          {
            name,
            coinValue: rule.coinValue,
            maxNumberOfParticipant: String(rule.cap),
            condition: 'chaos',
            ...rule.limited,
          },
          { token },
        ),
      );
      rules.push({ name, ...rule });
    }
    const tiers = [];
    for (const [rank, name] of ['silver', 'gold'].entries()) {
      const r = await ok('tier', api.post('/api/v1/laas/tiers', { name, rank: rank + 1 }, { token }));
      tiers.push(r.body.data.id);
    }
    world.push({
      partnerId: partner.partnerId,
      token,
      users,
      rules,
      tiers,
      setupRequest: { requestId, users },
    });
  }
  return world;
}
