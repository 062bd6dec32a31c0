import { describe, expect, it } from 'vitest';
import { requestHash } from '../src/domain/ledger/request-hash.ts';

const userId = '7f1c1d4e-3f0e-4c3b-9d0a-1b2c3d4e5f60';

describe('idempotency request hash', () => {
  it('is the same for the same request, whatever the case of the userId', () => {
    const a = requestHash('transferToUser', { userId, coins: '10.00', narration: 'hi' });
    expect(
      requestHash('transferToUser', { userId: userId.toUpperCase(), coins: '10.00', narration: 'hi' }),
    ).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart the direction, the amount, the user and the narration', () => {
    const base = { userId, coins: '10.00' };
    const a = requestHash('transferToUser', base);
    expect(requestHash('transferFromUser', base)).not.toBe(a);
    expect(requestHash('transferToUser', { ...base, coins: '10.01' })).not.toBe(a);
    expect(requestHash('transferToUser', { ...base, userId: userId.replace('7f', '8f') })).not.toBe(a);
    expect(requestHash('transferToUser', { ...base, narration: '' })).not.toBe(a);
    expect(requestHash('transferToUser', { ...base, narration: 'x' })).not.toBe(a);
  });

  it('cannot be confused by text that moves across field boundaries', () => {
    expect(requestHash('t', { userId, coins: '1', narration: '0' })).not.toBe(
      requestHash('t', { userId, coins: '10', narration: '' }),
    );
  });
});
