import {
  MAX_EVENT_BYTES,
  type onboarding,
  USERS_PER_ONBOARDED_EVENT,
  type UsersOnboardedEvent,
} from '@coin/contracts';

type StoredUser = onboarding.StoredUser;
type Payload = Omit<UsersOnboardedEvent, 'eventId'>;

/** Room for the event's own fields (ids, brackets) around its users. */
const ENVELOPE_BYTES = 512;

/**
 * The `usersOnboarded` events of a chunk's stored users, split so that each stays under
 * MAX_EVENT_BYTES and USERS_PER_ONBOARDED_EVENT: 500 users of 16 KB each would be 8 MB, which
 * NATS refuses. A user larger than the budget on its own still travels, alone.
 */
export function usersOnboardedEvents(
  partnerId: string,
  requestId: string,
  users: readonly StoredUser[],
): Payload[] {
  const events: Payload[] = [];
  let current: StoredUser[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const user of users) {
    const size = Buffer.byteLength(JSON.stringify(user)) + 1;
    if (
      current.length > 0 &&
      (bytes + size > MAX_EVENT_BYTES || current.length === USERS_PER_ONBOARDED_EVENT)
    ) {
      events.push({ partnerId, requestId, users: current });
      current = [];
      bytes = ENVELOPE_BYTES;
    }
    current.push(user);
    bytes += size;
  }
  if (current.length > 0) events.push({ partnerId, requestId, users: current });
  return events;
}
