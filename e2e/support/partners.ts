import { randomUUID } from 'node:crypto';
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

/** Registers a new partner and logs it in, through the gateway. */
export async function registerAndLogin(
  api: ApiClient,
  overrides: Record<string, unknown> = {},
): Promise<RegisteredPartner> {
  const body = partnerBody(overrides);
  const reg = await api.post('/api/v1/ufel/partners', body);
  if (reg.status !== 200) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const login = await api.post('/api/v1/ufel/partners/login', { email: body.email, password: body.password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return {
    email: body.email,
    password: body.password,
    partnerId: reg.body.data.partnerId,
    id: reg.body.data.id,
    accessToken: login.body.data.tokens.accessToken,
    refreshToken: login.body.data.tokens.refreshToken,
  };
}
