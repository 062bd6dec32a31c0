import { accounts } from '@coin/contracts';
import { isoTime } from '@coin/db';
import type { AccountUserRecord } from './account-user-store.ts';

function iso(d: string | null): string | null {
  return d ? isoTime(d) : null;
}

/**
 * The Account user of docs/specification.md ("Account user"); features this service does not have yet read as
 * their empty state. The code itself is never returned; its expiry is, while one is pending.
 */
export function accountUserView(u: AccountUserRecord): accounts.AccountUser {
  const verified = u.emailVerifiedAt != null;
  return {
    id: u.id,
    fullname: u.fullname,
    tag: u.tag,
    email: u.email,
    emailVerified: verified,
    emailCodeExpiresAt: verified ? null : iso(u.emailCodeExpiresAt),
    emailVerifiedAt: iso(u.emailVerifiedAt),
    phone: u.phone,
    dateOfBirth: u.dateOfBirth,
    dateJoined: isoTime(u.createdAt),
    countryCode: u.countryCode,
    isAdult: u.isAdult,
    ...accounts.accountUserEmptyState,
  };
}
