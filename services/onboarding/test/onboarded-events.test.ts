import { randomUUID } from 'node:crypto';
import {
  MAX_EVENT_BYTES,
  type onboarding,
  USERS_PER_ONBOARDED_EVENT,
  usersOnboardedEvent,
} from '@coin/contracts';
import { describe, expect, it } from 'vitest';
import { usersOnboardedEvents } from '../src/domain/processing/onboarded-events.ts';

function user(dataBytes: number): onboarding.StoredUser {
  const at = new Date().toISOString();
  return {
    id: randomUUID(),
    userId: randomUUID(),
    userData: { note: 'x'.repeat(dataBytes) },
    tierId: null,
    createdAt: at,
    updatedAt: at,
  };
}

const partnerId = randomUUID();
const requestId = randomUUID();
const bytes = (payload: unknown) =>
  Buffer.byteLength(JSON.stringify({ ...(payload as object), eventId: randomUUID() }));

describe('usersOnboarded events', () => {
  it('split 500 users of 16 KB each (8 MB) into events under the byte bound, every user once, in order', () => {
    const users = Array.from({ length: 500 }, () => user(16 * 1024 - 20));
    const events = usersOnboardedEvents(partnerId, requestId, users);
    expect(events.length).toBeGreaterThan(30);
    for (const e of events) {
      expect(bytes(e)).toBeLessThanOrEqual(MAX_EVENT_BYTES);
      expect(usersOnboardedEvent.safeParse({ ...e, eventId: randomUUID() }).success).toBe(true);
    }
    expect(events.flatMap((e) => e.users)).toEqual(users);
  });

  it('keep small users together up to the count bound', () => {
    const users = Array.from({ length: 1200 }, () => user(10));
    const events = usersOnboardedEvents(partnerId, requestId, users);
    expect(events.map((e) => e.users.length)).toEqual([
      USERS_PER_ONBOARDED_EVENT,
      USERS_PER_ONBOARDED_EVENT,
      200,
    ]);
    expect(events.flatMap((e) => e.users)).toEqual(users);
  });

  it('are none for no users', () => {
    expect(usersOnboardedEvents(partnerId, requestId, [])).toEqual([]);
  });
});
