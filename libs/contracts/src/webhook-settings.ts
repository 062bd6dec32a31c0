import { z } from 'zod';
import { httpUrl } from './common.ts';
import { operationsOf } from './operation.ts';
import { eventKind } from './webhooks.ts';

/** Identity's operations on where webhooks go and the secret that signs them. */
const { http } = operationsOf('identity');

/**
 * The event kinds a partner receives: none named means every kind (kinds added later included), so
 * the stored form is null; a list names some, each at most once.
 */
const webhookEvents = z
  .array(eventKind)
  .min(1)
  .max(eventKind.options.length)
  .refine((kinds) => new Set(kinds).size === kinds.length, { error: 'must not repeat an event kind' });

export const setWebhook = http('setWebhook', 'PUT /api/v1/ufel/partners/webhook', {
  permission: 'webhooks',
  message: 'webhook updated',
  summary: 'Set the webhook URL and the events sent to it; the signing secret only when this creates it',
  schemas: {
    body: z.strictObject({
      url: httpUrl,
      /** Rotation needs a recent password: rotateWebhookSecret. Kept so that `false` is still accepted. */
      rotateSecret: z
        .boolean()
        .default(false)
        .refine((rotate) => !rotate, {
          error: 'rotating the secret is POST /api/v1/ufel/partners/webhook/secret (needs a recent password)',
        }),
      events: webhookEvents.optional(),
    }),
    response: z
      .object({
        url: z.string(),
        /** Shown once: in the answer of the call that created it (the first URL set), never again. */
        secret: z.string().optional(),
        events: z.array(eventKind),
      })
      .meta({
        id: 'WebhookSettings',
        description: 'Where webhooks go and the kinds sent; the signing secret only when just created.',
      }),
  },
});

export const rotateWebhookSecret = http('rotateWebhookSecret', 'POST /api/v1/ufel/partners/webhook/secret', {
  permission: 'credentials',
  stepUp: true,
  message: 'webhook secret rotated',
  summary: 'Replace the webhook signing secret; the new one is shown in this answer only',
  schemas: {
    response: z
      .object({ secret: z.string() })
      .meta({ id: 'WebhookSecret', description: 'The new signing secret (whsec_…), shown this once.' }),
  },
});
