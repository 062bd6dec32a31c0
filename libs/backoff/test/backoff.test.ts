import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../src/index.ts';

describe('backoffDelay', () => {
  it('draws below the doubling bound, capped, and spreads its draws over that range', () => {
    const opts = { baseMs: 100, capMs: 5_000 };
    for (let attempt = 1; attempt <= 12; attempt++) {
      const bound = Math.min(opts.capMs, opts.baseMs * 2 ** (attempt - 1));
      const draws = Array.from({ length: 2000 }, () => backoffDelay(attempt, opts));
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...draws)).toBeLessThan(bound);
      // Full jitter: the draws cover the range, not just its top.
      expect(Math.min(...draws)).toBeLessThan(bound * 0.1);
      expect(Math.max(...draws)).toBeGreaterThan(bound * 0.9);
    }
    expect(backoffDelay(10_000, opts)).toBeLessThan(opts.capMs);
  });
});
