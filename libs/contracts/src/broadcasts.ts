import { z } from 'zod';
import { guid } from './common.ts';

/**
 * Hints every replica of a service hears (libs/bus `broadcast`): a partner's webhook URL or signing
 * secret changed, so a webhooks replica drops what it cached and asks identity at the next attempt.
 */
export const partnerEndpointChanged = {
  subject: 'bcast.identity.partnerEndpointChanged',
  schema: z.object({ partnerId: guid }),
};
