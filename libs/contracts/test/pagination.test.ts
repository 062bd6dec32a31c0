import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paginate } from '../src/index.ts';

describe('pagination block', () => {
  it('always names a last page, and next/prev pages only where they exist', () => {
    fc.assert(
      fc.property(
        fc.nat(100_000),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100 }),
        (count, page, limit) => {
          const p = paginate(count, page, limit);
          expect(p.count).toBe(count);
          expect(p.currentpage).toBe(page);
          expect(p.lastpage).toBe(Math.max(1, Math.ceil(count / limit)));
          expect(p.nextpage).toBe(page < p.lastpage ? page + 1 : null);
          if (page === 1) expect(p.prevpage).toBeNull();
          else expect(p.prevpage).toBe(Math.min(page - 1, p.lastpage));
        },
      ),
    );
  });

  it('reaches every item exactly once walking from page 1 by nextpage', () => {
    fc.assert(
      fc.property(fc.nat(1_000), fc.integer({ min: 1, max: 100 }), (count, limit) => {
        let seen = 0;
        for (let page: number | null = 1; page !== null; page = paginate(count, page, limit).nextpage)
          seen += Math.max(0, Math.min(limit, count - (page - 1) * limit));
        expect(seen).toBe(count);
      }),
    );
  });

  it('points a page past the end back at the last page', () => {
    expect(paginate(5, 9, 10)).toMatchObject({ lastpage: 1, nextpage: null, prevpage: 1 });
  });
});
