import { randomUUID } from 'node:crypto';
import { CoinApiError } from '@coin/sdk';
import { type ApiClient, eventually } from '@coin/testing';
import { type PartnerClient, partnerClient, type RegisteredPartner } from './partners.ts';

type OnboardUser = Parameters<PartnerClient['onboardUsers']>[0]['users'][number];

export function newUsers(n: number, userData: (i: number) => Record<string, unknown> = (i) => ({ n: i })) {
  return Array.from({ length: n }, (_, i) => ({ userId: randomUUID(), userData: userData(i) }));
}

/** Points the partner's webhook at `url`; returns the signing secret. */
export async function setWebhook(api: ApiClient, p: RegisteredPartner, url: string): Promise<string> {
  // The first URL set creates the secret, so its answer carries it.
  return (await partnerClient(api, p).setWebhook({ url })).secret!;
}

/** Asks for the users to be onboarded (done in the background); returns the request's id. */
export async function onboard(api: ApiClient, p: RegisteredPartner, users: OnboardUser[]): Promise<string> {
  return (await partnerClient(api, p).onboardUsers({ users })).requestId;
}

/** Onboards users with the given userData and waits until each is stored; returns their ids. */
export async function onboardWithData(
  api: ApiClient,
  token: string,
  userData: Record<string, unknown>[],
): Promise<string[]> {
  const sdk = partnerClient(api, token);
  const users = userData.map((data) => ({ userId: randomUUID(), userData: data }));
  await sdk.onboardUsers({ users });
  for (const { userId } of users)
    await eventually(
      () =>
        sdk.getPartnerUser({ userId }).catch((err) => {
          if (err instanceof CoinApiError && err.status === 404) return undefined;
          throw err;
        }),
      15_000,
    );
  return users.map((u) => u.userId);
}
