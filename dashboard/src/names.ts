/** The name a partner gave a user in `userData`, in the fields the ledger reads it from, or undefined. */
export function userName(userData: Record<string, unknown> | null | undefined): string | undefined {
  for (const field of ['fullname', 'fullName', 'name'] as const) {
    const value = userData?.[field];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

export function userTag(userData: Record<string, unknown> | null | undefined): string | undefined {
  const tag = userData?.tag;
  return typeof tag === 'string' && tag ? tag : undefined;
}

/** A user as people read it: the name when known, else the start of the id. */
export const shortId = (id: string) => `${id.slice(0, 8)}…`;

/** Names already looked up, by userId, so pages of a board cost one lookup per user per visit. */
const known = new Map<string, Promise<string | undefined>>();

/**
 * The names of `userIds` (the `userData` name, undefined when the user has none or cannot be read),
 * each looked up once: `lookup` asks the API for one user.
 */
export async function namesOf(
  userIds: readonly string[],
  lookup: (userId: string) => Promise<{ userData: Record<string, unknown> | null }>,
): Promise<Map<string, string | undefined>> {
  for (const id of userIds)
    if (!known.has(id))
      known.set(
        id,
        lookup(id).then(
          (u) => userName(u.userData),
          () => undefined,
        ),
      );
  return new Map(await Promise.all(userIds.map(async (id) => [id, await known.get(id)] as const)));
}
