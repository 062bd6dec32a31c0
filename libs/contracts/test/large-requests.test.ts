import { randomUUID } from 'node:crypto';
import { AppError } from '@coin/errors';
import { describe, expect, it } from 'vitest';
import { onboarding, parseRequestParts } from '../src/index.ts';
import { LARGE_REQUEST_BYTES, LARGE_REQUEST_CAPACITY, validateLargeRequest } from '../src/validation-pool.ts';

const op = onboarding.onboardUsers;

function users(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    userId: randomUUID().toUpperCase(),
    userData: { n: i } as Record<string, unknown>,
  }));
}

describe('large requests, validated on a worker thread', () => {
  it('answer what the event loop would: the same data, the same messages', async () => {
    const valid = { users: users(20_000) };
    const text = JSON.stringify(valid);
    expect(text.length).toBeGreaterThan(LARGE_REQUEST_BYTES);
    const here = parseRequestParts(op, { body: valid });
    const there = await validateLargeRequest(op, { json: text, shape: 'body' });
    expect(there).toEqual(here);
    expect(there.ok && (there.body as typeof valid).users[0]!.userId).toBe(
      valid.users[0]!.userId.toLowerCase(),
    );

    const serialized = await validateLargeRequest(op, { json: text, shape: 'body', serializeBody: true });
    expect(serialized.ok && JSON.parse(serialized.bodyJson!)).toEqual(here.ok && here.body);

    const bad = { users: users(20_000), extra: 1 };
    bad.users[19_999]!.userData = { note: 'a\u0000b' };
    bad.users[3]!.userId = 'nope';
    const badHere = parseRequestParts(op, { body: bad });
    const badThere = await validateLargeRequest(op, { json: JSON.stringify(bad), shape: 'body' });
    expect(badHere.ok).toBe(false);
    expect(badThere).toEqual(badHere);
    expect(!badThere.ok && badThere.error).toContain('users[19999].userData');
  });

  it('refuses what the gateway JSON parser refuses', async () => {
    const padding = 'x'.repeat(LARGE_REQUEST_BYTES);
    expect(await validateLargeRequest(op, { json: `{"users": [${padding}`, shape: 'body' })).toEqual({
      ok: false,
      error: 'body must be valid JSON',
    });
    const refused = { ok: false, error: 'body must not contain a __proto__ or constructor.prototype key' };
    const poisoned = `{"users": [], "pad": "${padding}", "__proto__": {"admin": true}}`;
    expect(await validateLargeRequest(op, { json: poisoned, shape: 'body' })).toEqual(refused);
    const viaConstructor = `{"users": [{"constructor": {"prototype": {"admin": true}}}], "pad": "${padding}"}`;
    expect(await validateLargeRequest(op, { json: viaConstructor, shape: 'body' })).toEqual(refused);
  });

  it('reads a bus envelope: its own fields beside the validated parts', async () => {
    const partnerId = randomUUID();
    const envelope = { partnerId, idempotencyKey: 'k', body: { users: users(5_000) } };
    const result = await validateLargeRequest(op, {
      json: new TextEncoder().encode(JSON.stringify(envelope)),
      shape: 'envelope',
    });
    expect(result.ok).toBe(true);
    expect(result.envelope).toEqual({ partnerId, idempotencyKey: 'k' });
    expect(await validateLargeRequest(op, { json: '[1]', shape: 'envelope' })).toMatchObject({ ok: false });
    expect(await validateLargeRequest(op, { json: '3', shape: 'envelope' })).toEqual({
      ok: false,
      error: 'request must be a JSON object',
    });
  });

  it('answers 503 with Retry-After once every thread is busy and the queue is full, and takes the rest', async () => {
    const text = JSON.stringify({ users: users(20_000) });
    const sent = LARGE_REQUEST_CAPACITY + 3;
    const outcomes = await Promise.allSettled(
      Array.from({ length: sent }, async () => validateLargeRequest(op, { json: text, shape: 'body' })),
    );
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    const taken = outcomes.filter((o) => o.status === 'fulfilled' && o.value.ok);
    console.log(`${sent} large validations at once: ${taken.length} done, ${refused.length} refused 503`);
    expect(taken).toHaveLength(LARGE_REQUEST_CAPACITY);
    expect(refused).toHaveLength(3);
    for (const err of refused) {
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({
        status: 503,
        details: { appErrorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 5 },
      });
    }
    // The queue drains: the next one is taken again.
    expect((await validateLargeRequest(op, { json: text, shape: 'body' })).ok).toBe(true);
  });
});
