import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssues, guid, paginate } from '../src/index.ts';

function message(schema: z.ZodType, value: unknown): string {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a validation error');
  return formatIssues(parsed.error);
}

describe('validation messages', () => {
  const users = z.object({
    users: z.array(z.object({ userId: guid, userData: z.record(z.string(), z.unknown()) })),
  });

  it('names the field the way the specification words it', () => {
    expect(message(z.object({ applicationName: z.string() }), {})).toBe('applicationName is required');
    expect(message(z.object({ email: z.email() }), { email: 'x' })).toBe('email must be a valid email');
    const bad = {
      users: [
        { userId: '7f1c1d4e-3f0e-4c3b-9d0a-1b2c3d4e5f60', userData: {} },
        { userId: 'nope', userData: {} },
      ],
    };
    expect(message(users, bad)).toBe('users[1].userId must be a valid GUID');
  });

  it('describes types, bounds and enumerations', () => {
    expect(message(z.object({ n: z.number() }), { n: 'x' })).toBe('n must be a number');
    expect(message(z.object({ a: z.array(z.string()).min(1) }), { a: [] })).toBe(
      'a must contain at least 1 item',
    );
    expect(message(z.object({ s: z.string().max(3) }), { s: 'abcd' })).toBe('s must be at most 3 characters');
    expect(message(z.object({ k: z.enum(['active', 'inactive']) }), { k: 'x' })).toBe(
      'k must be one of: active, inactive',
    );
    expect(message(z.object({ p: z.number().positive() }), { p: 0 })).toBe('p must be greater than 0');
    expect(message(z.object({ o: z.object({}) }), { o: [] })).toBe('o must be an object');
  });

  it('uses the subject for a problem at the root', () => {
    expect(message(z.object({}), 'text')).toBe('body must be an object');
  });
});

describe('pagination block', () => {
  it('computes next, previous and last pages', () => {
    expect(paginate(25, 1, 10)).toEqual({
      count: 25,
      currentpage: 1,
      nextpage: 2,
      prevpage: null,
      lastpage: 3,
    });
    expect(paginate(25, 3, 10)).toEqual({
      count: 25,
      currentpage: 3,
      nextpage: null,
      prevpage: 2,
      lastpage: 3,
    });
    expect(paginate(0, 1, 10)).toEqual({
      count: 0,
      currentpage: 1,
      nextpage: null,
      prevpage: null,
      lastpage: 1,
    });
    expect(paginate(5, 4, 10)).toEqual({
      count: 5,
      currentpage: 4,
      nextpage: null,
      prevpage: 1,
      lastpage: 1,
    });
  });
});
