import { defineEntity, p } from '@mikro-orm/core';

/** A partner's user as onboarding stored it (projected from its usersOnboarded events). */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    partnerId: p.uuid().primary(),
    userId: p.uuid().primary(),
    id: p.uuid(),
    userData: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export const leaderboardEntities = [User];
