import { defineEntity, p } from '@mikro-orm/core';

/** Written and claimed with SQL (FOR UPDATE SKIP LOCKED); the entity serves reads. */
export const Delivery = defineEntity({
  name: 'Delivery',
  tableName: 'deliveries',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid(),
    eventId: p.uuid(),
    eventType: p.string(),
    body: p.text().lazy(),
    status: p.string(),
    attempts: p.integer(),
    nextAttemptAt: p.datetime().nullable(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    deliveredAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export const webhooksEntities = [Delivery];
