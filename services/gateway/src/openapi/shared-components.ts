/** The parts of the document that are written once, not generated: security, headers, parameters. */
export function sharedComponents() {
  return {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'An access token from login (15 minutes), or a secret API key (`ck_live_…`).',
      },
    },
    parameters: {
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Your key for this coin movement (1 to 255 characters, kept 72 hours): the same key and body replays the first result with `isExisting: true`; the same key with another body is 422 `IDEMPOTENCY_CONFLICT`.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
        example: 'order-1234',
      },
      RequestId: {
        name: 'x-request-id',
        in: 'header',
        required: false,
        description: 'Your id for this call (`[\\w.:-]{1,128}`), echoed back and in every log line.',
        schema: { type: 'string', pattern: '^[\\w.:-]{1,128}$' },
      },
    },
    headers: {
      RequestId: {
        description: 'The call\u2019s id (yours, if you sent a valid one).',
        schema: { type: 'string' },
      },
      RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
      RateLimitLimit: {
        description: 'Calls allowed per window from this address.',
        schema: { type: 'integer' },
      },
      RateLimitRemaining: { description: 'Calls left in this window.', schema: { type: 'integer' } },
      RateLimitReset: { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
      OnboardingRequestLocation: {
        description:
          'The onboarding request: `/api/v1/laas/onboarding-requests/{id}`; `id` is the webhook\u2019s `requestId`.',
        schema: { type: 'string' },
      },
    },
  };
}
