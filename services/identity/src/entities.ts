import { defineEntity, p } from '@mikro-orm/core';

export const Partner = defineEntity({
  name: 'Partner',
  tableName: 'partners',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid().unique(),
    applicationName: p.string(),
    clientId: p.string().unique(),
    redirectUrl: p.string(),
    webRedirectUrl: p.string(),
    mobileRedirectUrl: p.string(),
    email: p.string().unique(),
    partnerName: p.string(),
    userDetailsUrl: p.string(),
    passwordHash: p.string(),
    webhookUrl: p.string().nullable(),
    webhookSecret: p.string().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export const RefreshToken = defineEntity({
  name: 'RefreshToken',
  tableName: 'refresh_tokens',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid(),
    familyId: p.uuid(),
    tokenHash: p.string().unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid(),
    name: p.string(),
    prefix: p.string(),
    keyHash: p.string().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

export const SigningKey = defineEntity({
  name: 'SigningKey',
  tableName: 'signing_keys',
  properties: {
    kid: p.string().primary(),
    privateJwk: p.json<Record<string, unknown>>(),
    publicJwk: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** A person who signed up directly (POST /api/v1/user); the one-time code's state lives with it. */
export const AccountUser = defineEntity({
  name: 'AccountUser',
  tableName: 'account_users',
  properties: {
    id: p.uuid().primary(),
    fullname: p.string(),
    tag: p.string(),
    email: p.string(),
    passwordHash: p.string(),
    phone: p.string(),
    countryCode: p.string(),
    isAdult: p.boolean(),
    dateOfBirth: p.date(),
    emailVerifiedAt: p.datetime().nullable(),
    emailCodeHash: p.string().nullable(),
    emailCodeExpiresAt: p.datetime().nullable(),
    emailCodeAttempts: p.integer().default(0),
    emailCodeSentAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export const identityEntities = [Partner, RefreshToken, ApiKey, SigningKey, AccountUser];
