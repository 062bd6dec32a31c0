import { z } from 'zod';
import { EXAMPLE } from './types.ts';

/** The body of the USER_ONBOARDING webhook, exactly as POSTed to the partner. */
export const userOnboardingWebhookBody = z.object({
  event: z.literal('USER_ONBOARDING'),
  status: z.literal('success'),
  requestId: z.guid(),
  failed: z.array(z.object({ user: z.string(), reason: z.string() })),
});

/** The events sent to a partner's webhook URL (OpenAPI `webhooks`), with what the headers mean. */
export const webhookDocs = {
  USER_ONBOARDING: {
    summary: 'An onboard-users request has been processed',
    body: userOnboardingWebhookBody,
    description:
      'One per onboard-users request, once every user of it has been handled. `requestId` is the request\u2019s id (the `Location` of the onboard-users answer). `failed` lists every user not onboarded, in request order. Verify the signature against the raw body before parsing it; answer any 2xx within 15 s. Anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; 410 Gone disables the URL.',
    example: {
      event: 'USER_ONBOARDING',
      status: 'success',
      requestId: EXAMPLE.requestId,
      failed: [
        {
          user: EXAMPLE.userId,
          reason: 'userId is already onboarded for this partner (uniqueness violation)',
        },
      ],
    },
  },
  headers: {
    'webhook-id': 'The delivery\u2019s id, the same on every attempt: use it to ignore a repeat.',
    'webhook-timestamp': 'Seconds since the epoch at this attempt: refuse one more than 5 minutes off.',
    'webhook-signature':
      '`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of your secret after `whsec_` (Standard Webhooks). Several may be listed, space-separated.',
  },
} as const;
