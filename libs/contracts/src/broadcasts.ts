import { z } from 'zod';
import { guid } from './common.ts';
import type { ServiceName } from './operation.ts';

/**
 * Hints every replica of a service hears (libs/bus `broadcast`): a partner's webhook URL or signing
 * secret changed, so a webhooks replica drops what it cached and asks identity at the next attempt.
 */
export const partnerEndpointChanged = {
  subject: 'bcast.identity.partnerEndpointChanged',
  schema: z.object({ partnerId: guid }),
  /** The services that listen (the sender is the subject's second token). */
  listeners: ['webhooks'] as readonly ServiceName[],
};

/** Every hint, for the NATS authorization: who sends it and who may hear it. */
export const allBroadcasts = [partnerEndpointChanged] as const;
