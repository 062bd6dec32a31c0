import type { accounts } from '@coin/contracts';
import type { InferEntity } from '@mikro-orm/core';
import type { AccountUser } from '../entities.ts';

type AccountUserRow = InferEntity<typeof AccountUser>;

function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

/**
 * The specification's Account user. Features this service does not have yet (referrals, KYC,
 * linking, PINs, devices) read as their empty state: null, false, `{}` or `[]`. The code itself is
 * never returned; its expiry is, while one is pending.
 */
export function accountUserView(u: AccountUserRow): accounts.AccountUser {
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
    dateJoined: u.createdAt.toISOString(),
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
