import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signature, signedHeaders } from '../src/domain/signing.ts';

describe('webhook signing (Standard Webhooks)', () => {
  it("matches the specification's published test vector", () => {
    const sig = signature(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('sends headers a receiver can verify with the secret alone: seconds timestamp, id, signature', () => {
    const secret = `whsec_${Buffer.from('a partner secret of 32 bytes....').toString('base64')}`;
    const body = '{"event":"USER_ONBOARDING"}';
    const headers = signedHeaders(secret, 'msg_1', body, 1_700_000_000_999);
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['webhook-id']).toBe('msg_1');
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`msg_1.1700000000.${body}`).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('signs the exact bytes: another body, id or timestamp gives another signature', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const base = signature(secret, 'id', 1, '{}');
    expect(signature(secret, 'id', 1, '{ }')).not.toBe(base);
    expect(signature(secret, 'id2', 1, '{}')).not.toBe(base);
    expect(signature(secret, 'id', 2, '{}')).not.toBe(base);
    expect(signature('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'id', 1, '{}')).not.toBe(base);
  });
});
