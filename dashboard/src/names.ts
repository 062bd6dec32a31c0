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
