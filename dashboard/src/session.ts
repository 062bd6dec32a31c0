import { type Permission, ROLE_PERMISSIONS, type Role } from '@coin/contracts';
import { CoinApiError, type Credentials, createClient, type FailureBody } from '@coin/sdk';
import { useEffect, useState } from 'preact/hooks';

const SESSION = '/dashboard/session';

interface Partner {
  id: string;
  email: string;
  name: string;
}

/**
 * The access token lives only in this module's memory; the refresh token only in the gateway's
 * HttpOnly cookie, which `refresh` spends for a new access token (one refresh at a time: a refresh
 * token is single-use).
 */
let accessToken: string | undefined;
let partner: Partner | undefined;
/** The signed-in member: their role decides which pages and buttons the dashboard offers. */
let member: { id: string; email: string; role: Role } | undefined;
let inflight: Promise<string | undefined> | undefined;
const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};

async function post(path: string, init: RequestInit): Promise<{ data: Record<string, unknown> }> {
  const res = await fetch(path, { credentials: 'same-origin', ...init });
  const body = await res.json().catch(() => undefined);
  if (!res.ok)
    throw new CoinApiError({
      status: res.status,
      body: body as FailureBody,
      requestId: res.headers.get('x-request-id') ?? undefined,
    });
  return body;
}

const credentials: Credentials = {
  token: () => accessToken,
  refresh() {
    inflight ??= post(`${SESSION}/refresh`, { method: 'POST' })
      .then(
        ({ data }) => (accessToken = data.accessToken as string),
        () => {
          accessToken = undefined;
          partner = undefined;
          member = undefined;
          changed();
          return undefined;
        },
      )
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  },
};

/** The SDK client every page uses: the public API, as any partner calls it. */
export const api = createClient({ baseUrl: location.origin, credentials, retry: { attempts: 3 } });

export async function signIn(email: string, password: string): Promise<void> {
  const { data } = await post(SESSION, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  accessToken = data.accessToken as string;
  partner = data.user as Partner;
  await loadMember();
  changed();
}

/** Enters the password again (a new sign-in): what the API's step-up asks before a sensitive change. */
export async function confirmPassword(password: string): Promise<void> {
  const email = member?.email ?? partner?.email;
  if (!email || !password) throw new Error('enter your password to confirm');
  await signIn(email, password);
}

/** The member and role of this session (the gateway enforces the role; the pages follow it). */
async function loadMember(): Promise<void> {
  member = await api.getCurrentMember().catch(() => undefined);
}

export async function signOut(): Promise<void> {
  await post(SESSION, { method: 'DELETE', headers: { authorization: `Bearer ${accessToken}` } }).catch(
    () => undefined,
  );
  accessToken = undefined;
  partner = undefined;
  member = undefined;
  changed();
}

/** After a reload: the cookie, if any, gives a new access token. */
export async function restore(): Promise<void> {
  if (await credentials.refresh!(undefined, async () => Promise.reject())) {
    const me = await api.getMe();
    partner = { id: me.partnerId, email: me.email, name: me.partnerName };
    await loadMember();
  }
  changed();
}

export interface Session {
  signedIn: boolean;
  partner?: Partner;
  member?: typeof member;
  /** Whether the member's role holds `permission` (unknown member: the API alone decides). */
  can: (permission: Permission) => boolean;
}

const can = (permission: Permission) => !member || ROLE_PERMISSIONS[member.role].includes(permission);

export function useSession(): Session {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((t) => t + 1);
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  }, []);
  return { signedIn: accessToken !== undefined, partner, member, can };
}
