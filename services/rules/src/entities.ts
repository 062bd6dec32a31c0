import { defineEntity, p } from '@mikro-orm/core';

/**
 * A partner's reward rule. `participants` (pending + paid participations) is written only by the
 * conditional UPDATEs in `rewards/participations.ts`, which is what keeps the cap exact.
 */
export const Rule = defineEntity({
  name: 'Rule',
  tableName: 'rules',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid(),
    name: p.string(),
    coinValue: p.decimal('string'),
    condition: p.text(),
    maxParticipants: p.integer(),
    participants: p.integer().default(0),
    status: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export const rulesEntities = [Rule];
