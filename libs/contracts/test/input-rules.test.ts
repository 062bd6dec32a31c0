import { describe, expect, it } from 'vitest';
import {
  allOperations,
  leaderboard,
  MAX_USER_DATA_BYTES,
  MAX_USER_DATA_DEPTH,
  type Operation,
  onboarding,
  parseRequestParts,
  type RequestParts,
  rules,
  wallet,
} from '../src/index.ts';

const USER = '7f1c1d4e-3f0e-4c3b-9d0a-1b2c3d4e5f60';

function errorOf(op: Operation, parts: RequestParts): string {
  const result = parseRequestParts(op, parts);
  if (result.ok) throw new Error('expected a validation error');
  return result.error;
}

function bodyOf(op: Operation, body: unknown): unknown {
  const result = parseRequestParts(op, { body });
  if (!result.ok) throw new Error(result.error);
  return result.body;
}

describe('text fields', () => {
  it('refuse NUL and other control characters, naming the field', () => {
    for (const bad of ['a\u0000b', 'a\u0007b', 'a\nb', 'a\u009Bb']) {
      expect(errorOf(wallet.transferToUser, { body: { userId: USER, coins: 1, narration: bad } })).toBe(
        'narration must not contain control characters',
      );
    }
  });

  it('allow tabs and line breaks only in a rule condition', () => {
    const body = { name: 'r', coinValue: '1', maxNumberOfParticipant: '1', condition: 'line 1\n\tline 2' };
    expect(bodyOf(rules.createRule, body)).toMatchObject({ condition: 'line 1\n\tline 2' });
    expect(errorOf(rules.createRule, { body: { ...body, condition: 'x\u0000' } })).toBe(
      'condition must not contain control characters other than tab and line breaks',
    );
  });

  it('refuse unpaired surrogates and text over the field maximum', () => {
    expect(errorOf(onboarding.createTier, { body: { name: 'gold\uD800', rank: 1 } })).toBe(
      'name must be valid Unicode text',
    );
    expect(errorOf(onboarding.createTier, { body: { name: 'g'.repeat(101), rank: 1 } })).toBe(
      'name must be at most 100 characters',
    );
  });

  it('have a documented maximum length for every text field of every request', () => {
    const unbounded: string[] = [];
    for (const op of allOperations) {
      const body = op.schemas.body?.toJSONSchema({ io: 'input' }) as
        | {
            properties?: Record<
              string,
              { type?: string; maxLength?: number; pattern?: string; enum?: unknown }
            >;
          }
        | undefined;
      for (const [field, schema] of Object.entries(body?.properties ?? {})) {
        if (schema.type === 'string' && schema.maxLength === undefined && !schema.pattern && !schema.enum)
          unbounded.push(`${op.name}.${field}`);
      }
    }
    expect(unbounded).toEqual([]);
  });
});

describe('userData', () => {
  const onboard = (userData: unknown) => ({ body: { users: [{ userId: USER, userData }] } });

  it('refuses NUL anywhere in it, naming users[i].userData', () => {
    expect(errorOf(onboarding.onboardUsers, onboard({ note: 'a\u0000b' }))).toBe(
      'users[0].userData must not contain NUL characters or unpaired surrogates',
    );
    expect(errorOf(onboarding.onboardUsers, onboard({ deep: [{ 'k\u0000': 1 }] }))).toContain(
      'users[0].userData',
    );
  });

  it(`takes ${MAX_USER_DATA_BYTES} bytes as JSON and refuses one more`, () => {
    const fits = { note: 'x'.repeat(MAX_USER_DATA_BYTES - '{"note":""}'.length) };
    expect(bodyOf(onboarding.onboardUsers, onboard(fits).body)).toBeDefined();
    const over = { note: `${fits.note}x` };
    expect(errorOf(onboarding.onboardUsers, onboard(over))).toBe(
      `users[0].userData must be at most ${MAX_USER_DATA_BYTES} bytes as JSON (it is ${MAX_USER_DATA_BYTES + 1})`,
    );
  });

  it(`refuses nesting deeper than ${MAX_USER_DATA_DEPTH} levels without exhausting the stack`, () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(errorOf(onboarding.onboardUsers, onboard(deep))).toBe(
      `users[0].userData must not be nested more than ${MAX_USER_DATA_DEPTH} levels deep`,
    );
  });

  it('must be an object', () => {
    expect(errorOf(onboarding.onboardUsers, onboard([1]))).toBe('users[0].userData must be an object');
  });
});

describe('coins', () => {
  const transfer = (coins: unknown) => ({ body: { userId: USER, coins } });

  it('take at least 0.01 with at most two decimals, decided on the decimal text', () => {
    for (const ok of [0.01, 10.1, 10.1, 999_999_999.99, 1_000_000_000]) {
      expect(bodyOf(wallet.transferToUser, transfer(ok).body)).toMatchObject({ coins: ok });
    }
    expect(errorOf(wallet.transferToUser, transfer(1e-9))).toBe('coins must be at least 0.01');
    expect(errorOf(wallet.transferToUser, transfer(0))).toBe('coins must be at least 0.01');
    expect(errorOf(wallet.transferToUser, transfer(-1))).toBe('coins must be at least 0.01');
    expect(errorOf(wallet.transferToUser, transfer(0.001))).toBe('coins must be at least 0.01');
    expect(errorOf(wallet.transferToUser, transfer(10.001))).toBe('coins must have at most 2 decimal places');
    expect(errorOf(wallet.transferToUser, transfer(0.1 + 0.2))).toBe(
      'coins must have at most 2 decimal places',
    );
    expect(errorOf(wallet.transferToUser, transfer(1e21))).toBe('coins must be at most 1000000000');
    expect(errorOf(wallet.transferToUser, transfer('5'))).toBe('coins must be a number');
  });

  it('an issuance limit out of bounds is named for that alone, as coins are', () => {
    const limit = (issuanceLimit: unknown) => ({ body: { issuanceLimit } });
    expect(errorOf(wallet.setTreasury, limit(-5))).toBe('issuanceLimit must be at least 0');
    expect(errorOf(wallet.setTreasury, limit(10.001))).toBe(
      'issuanceLimit must have at most 2 decimal places',
    );
    expect(bodyOf(wallet.setTreasury, limit(null).body)).toEqual({ issuanceLimit: null });
  });
});

describe('UUIDs', () => {
  it('are lower-cased in bodies, queries and paths', () => {
    const upper = USER.toUpperCase();
    expect(bodyOf(rules.rewardUser, { userId: upper, ruleName: 'r' })).toEqual({
      userId: USER,
      ruleName: 'r',
    });
    const board = parseRequestParts(leaderboard.pointsLeaderboard, {
      query: { partnerId: upper, userId: upper },
    });
    expect(board).toMatchObject({ ok: true, query: { partnerId: USER, userId: USER } });
    const path = parseRequestParts(rules.updateRule, { params: { id: upper }, body: { status: 'active' } });
    expect(path).toMatchObject({ ok: true, params: { id: USER } });
  });
});

describe('unknown body fields and several problems', () => {
  it('refuse every unknown field by name, nested ones too', () => {
    expect(errorOf(wallet.transferToUser, { body: { userId: USER, coins: 1, memo: 'x', tip: 1 } })).toBe(
      'memo is not allowed; tip is not allowed',
    );
    expect(
      errorOf(onboarding.onboardUsers, { body: { users: [{ userId: USER, userData: {}, extra: true }] } }),
    ).toBe('users[0].extra is not allowed');
  });

  it('refuse fields sent to an operation that takes no body', () => {
    expect(errorOf(leaderboard.ping, { body: { x: 1 } })).toBe('x is not allowed');
  });

  it('name every wrong field of body, query and path at once', () => {
    expect(
      errorOf(rules.updateRule, { params: { id: 'nope' }, body: { status: 'gone', colour: 'red' } }),
    ).toBe('status must be one of: active, inactive; colour is not allowed; id must be a valid GUID');
  });

  it('use words a partner would, not the library', () => {
    expect(errorOf(onboarding.createTier, { body: { name: 'gold', rank: 1.5 } })).toBe(
      'rank must be a whole number',
    );
    expect(errorOf(onboarding.onboardUsers, { body: { users: 'all' } })).toBe('users must be an array');
    expect(errorOf(onboarding.onboardUsers, { body: 'x' })).toBe('body must be an object');
  });
});

describe('numeric text of a rule', () => {
  const rule = { name: 'r', coinValue: '1', maxNumberOfParticipant: '1' };

  it('takes text or a number, bounded, and names anything else', () => {
    expect(bodyOf(rules.createRule, { ...rule, coinValue: 2.5, maxNumberOfParticipant: 3 })).toMatchObject({
      coinValue: '2.5',
      maxNumberOfParticipant: '3',
    });
    expect(errorOf(rules.createRule, { body: { ...rule, coinValue: true } })).toBe(
      'coinValue must be numeric text or a number',
    );
    expect(
      errorOf(rules.createRule, { body: { ...rule, maxNumberOfParticipant: `${'0'.repeat(40)}1` } }),
    ).toBe('maxNumberOfParticipant must be at most 32 characters');
    expect(errorOf(rules.createRule, { body: { name: 'r', maxNumberOfParticipant: '1' } })).toBe(
      'coinValue is required',
    );
  });
});
