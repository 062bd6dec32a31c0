import { describe, expect, it } from 'vitest';
import { unansweredOnboardAttempts } from '../src/checks/webhooks.ts';

const answered = { status: 200, headers: {}, body: {} };

describe('the onboarding requests no client was told of, as the webhook check bounds them', () => {
  it('counts every attempt whose answer was lost, not one per retried call (seeds 4801, 4802)', () => {
    const records = [
      { kind: 'onboard' as const, attempts: 3, final: answered },
      { kind: 'onboard' as const, attempts: 1, final: answered },
      { kind: 'onboard' as const, attempts: 2, final: { ...answered, status: 400 } },
      { kind: 'onboard' as const, attempts: 2, final: undefined },
      { kind: 'transfer-to-user' as const, attempts: 4, final: answered },
    ];
    // 2 lost before the answer, 0, 1 before the refusal, 2 never answered; a transfer is not counted.
    expect(unansweredOnboardAttempts(records)).toBe(5);
  });

  it('is 0 when every onboarding was answered at its first attempt', () => {
    expect(unansweredOnboardAttempts([{ kind: 'onboard', attempts: 1, final: answered }])).toBe(0);
  });
});
