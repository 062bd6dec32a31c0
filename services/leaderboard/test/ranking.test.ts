import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountText, centsOf, memberOf, userIdOf } from '../src/domain/ranking.ts';

const reachedMs = fc.integer({ min: 0, max: 4_102_444_800_000 });
const amount = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 99 }))
  .map(([whole, cents]) => `${whole}.${String(cents).padStart(2, '0')}`);

/** Redis's order for equal scores: members compared as bytes, greatest first (ZREVRANGE). */
const redisDescending = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

describe('leaderboard ranking', () => {
  it('reads back the userId of a member, in lower case', () => {
    fc.assert(
      fc.property(fc.uuid(), reachedMs, fc.boolean(), (userId, t, upper) => {
        expect(userIdOf(memberOf(upper ? userId.toUpperCase() : userId, t))).toBe(userId.toLowerCase());
      }),
    );
  });

  it('ranks equal amounts by who reached them first, then by userId ascending', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.uuid(), reachedMs), { minLength: 2, maxLength: 20 }), (standings) => {
        const byRedis = standings
          .map(([u, t]) => ({ u, t, m: memberOf(u, t) }))
          .sort((a, b) => redisDescending(a.m, b.m));
        const expected = [...byRedis].sort((a, b) => a.t - b.t || (a.u < b.u ? -1 : a.u > b.u ? 1 : 0));
        expect(byRedis.map((s) => [s.u, s.t])).toEqual(expected.map((s) => [s.u, s.t]));
      }),
    );
  });

  it('turns exact decimal text into integer cents and back without loss', () => {
    fc.assert(
      fc.property(amount, (text) => {
        const cents = centsOf(text);
        expect(Number.isSafeInteger(cents)).toBe(true);
        expect(amountText(cents)).toBe(text);
      }),
    );
    expect(centsOf('1.5')).toBe(150);
    expect(centsOf('7')).toBe(700);
    expect(centsOf('0.05')).toBe(5);
    expect(amountText('1234')).toBe('12.34');
  });
});
