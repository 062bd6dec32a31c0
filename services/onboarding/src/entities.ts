import { defineEntity, p } from '@mikro-orm/core';

export const Tier = defineEntity({
  name: 'Tier',
  tableName: 'tiers',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid(),
    name: p.string(),
    rank: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

/** Written in bulk with SQL by the request processor; read and updated one at a time here. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid(),
    userId: p.uuid(),
    userData: p.json<Record<string, unknown>>().nullable(),
    tierId: p.uuid().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime().onUpdate(() => new Date()),
  },
});

export const onboardingEntities = [Tier, User];
