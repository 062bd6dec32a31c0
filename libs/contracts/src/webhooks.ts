import { z } from 'zod';
import { guid, isoTimestamp, pageQuery, paginationBlock } from './common.ts';
import { defineOperation, type Operation } from './operation.ts';

export const deliveryStatus = z.enum(['pending', 'delivered', 'failed']);

export const deliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  url: z.string().nullable(),
  startedAt: isoTimestamp,
  /** Null while the attempt is in flight, or when the process died during it (outcome unknown). */
  finishedAt: isoTimestamp.nullable(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  /** An extra attempt the partner asked for (redeliver) while the delivery was pending, beside its schedule. */
  manual: z.boolean(),
});

export const deliverySchema = z.object({
  id: guid,
  event: z.string(),
  eventId: guid,
  status: deliveryStatus,
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: isoTimestamp.nullable(),
  deliveredAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
  attemptLog: z.array(deliveryAttemptSchema),
});

export const listDeliveries = defineOperation({
  service: 'webhooks',
  name: 'listDeliveries',
  http: {
    method: 'GET',
    path: '/api/v1/laas/webhooks/deliveries',
    auth: 'partner',
    message: 'webhook deliveries returned',
    summary: 'Your webhook deliveries, newest first, with every attempt',
  },
  schemas: {
    query: z.object({ ...pageQuery, status: deliveryStatus.optional() }),
    response: z.object({ data: z.array(deliverySchema), ...paginationBlock }),
  },
});

export const retryDelivery = defineOperation({
  service: 'webhooks',
  name: 'retryDelivery',
  http: {
    method: 'POST',
    path: '/api/v1/laas/webhooks/deliveries/:id/retry',
    auth: 'partner',
    message: 'webhook delivery scheduled',
    summary: 'Redeliver: one more attempt now (also re-enables an endpoint disabled by 410)',
  },
  schemas: { params: z.object({ id: guid }), response: deliverySchema },
});

/** The webhooks service's operations (HTTP routes and internal NATS subjects). */
export const webhooksOperations: readonly Operation[] = [listDeliveries, retryDelivery];
