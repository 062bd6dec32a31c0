import type { accounts } from '@coin/contracts';
import { isoTime } from '@coin/db';
import type { AccountUserRecord } from './account-user-store.ts';

function iso(d: string | null): string | null {
  return d ? isoTime(d) : null;
}

/**
 * The specification's Account user. Features this service does not have yet (referrals, KYC,
 * linking, PINs, devices) read as their empty state: null, false, `{}` or `[]`. The code itself is
 * never returned; its expiry is, while one is pending.
 */
export function accountUserView(u: AccountUserRecord): accounts.AccountUser {
  const verified = u.emailVerifiedAt != null;
  return {
    id: u.id,
    fullname: u.fullname,
    tag: u.tag,
    email: u.email,
    avatar: null,
    emailVerified: verified,
    emailVerificationCode: null,
    emailCodeExpiresAt: verified ? null : iso(u.emailCodeExpiresAt),
    emailVerifiedAt: iso(u.emailVerifiedAt),
    phone: u.phone,
    referralCode: null,
    referred: null,
    interest: null,
    dateOfBirth: u.dateOfBirth,
    type: 'user',
    status: 'active',
    token: null,
    otpExpiresAt: null,
    transactionPinCreated: false,
    kyc: {},
    earnings: [],
    fcmToken: null,
    dateJoined: isoTime(u.createdAt),
    bankAccountCreated: false,
    faceIdKey: null,
    lastRewardDate: null,
    accountDeleted: false,
    countryCode: u.countryCode,
    isVerifiedUser: false,
    gender: null,
    isAdult: u.isAdult,
    isFirstLogin: false,
    tourCompleted: false,
    isEnterpisePartnerUser: null,
    accountLinked: null,
    numberOfAccountLinked: null,
    accountLinkingData: null,
    fromLAAS: false,
    laasUserAccountFullyActivated: false,
  };
}
