import { randomUUID } from 'node:crypto';
import { createClient } from '@coin/sdk';
import type { ApiClient } from '@coin/testing';

export interface RegisteredPartner {
  email: string;
  password: string;
  partnerId: string;
  id: string;
  accessToken: string;
  refreshToken: string;
}

export function partnerBody(overrides: Record<string, unknown> = {}) {
  return {
    applicationName: 'Rewards App',
    redirectUrl: 'https://partner.example/redirect',
    webRedirectUrl: 'https://partner.example/web',
    mobileRedirectUrl: 'partnerapp://callback',
    email: `partner-${randomUUID()}@example.com`,
    partnerName: 'Example Partner',
    password: 'correct horse battery staple',
    confirmPassword: 'correct horse battery staple',
    userDetailsUrl: 'https://partner.example/users',
    ...overrides,
  };
}

export type PartnerClient = ReturnType<typeof createClient>;

/**
 * The SDK client a partner's backend would hold: its calls through the gateway with its token
 * (a partner, or the token itself; none for registering and logging in). The e2e tests call the API through it wherever they act as a
 * partner; raw HTTP (`stack.api`) is kept for what checks the wire: status codes, headers, bodies
 * as sent, malformed input.
 */
export function partnerClient(
  api: ApiClient,
  who?: Pick<RegisteredPartner, 'accessToken'> | string,
): PartnerClient {
  if (who === undefined) return createClient({ baseUrl: api.baseUrl });
  const token = typeof who === 'string' ? who : who.accessToken;
  return createClient({ baseUrl: api.baseUrl, credentials: { token: () => token } });
}

/** Registers a new partner and logs it in, through the gateway, as a partner's code would: with the SDK. */
export async function registerAndLogin(
  api: ApiClient,
  overrides: Record<string, unknown> = {},
): Promise<RegisteredPartner> {
  const body = partnerBody(overrides);
  const sdk = partnerClient(api);
  const partner = await sdk.registerPartner(body as Parameters<typeof sdk.registerPartner>[0]);
  const { tokens } = await sdk.login({ email: body.email, password: body.password });
  return {
    email: body.email,
    password: body.password,
    partnerId: partner.partnerId,
    id: partner.id,
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
  };
}
