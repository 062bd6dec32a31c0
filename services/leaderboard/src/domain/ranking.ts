/**
 * How a standing becomes a Redis sorted-set entry. The score is the amount in cents (an integer,
 * so exact as a double up to 2^53 cents). Ties are broken inside the member, because Redis orders
 * equal scores by member: ZREVRANGE gives the lexicographically greatest member first, so the
 * member carries the reach time and the userId inverted (9 - digit, f - hex digit). The order is
 * therefore: amount descending, then who reached it first, then userId ascending, the same order
 * the Postgres fallback uses.
 */
const TIME_WIDTH = 15;
const TIME_MAX = 10n ** BigInt(TIME_WIDTH) - 1n;

const INVERTED: Record<string, string> = Object.fromEntries(
  Array.from({ length: 16 }, (_, i) => [i.toString(16), (15 - i).toString(16)]),
);

// A loop over a table, not a replace with a callback: every page read inverts each of its members
// (the callback form showed in the leaderboard's CPU profile under page reads;
// docs/decisions/2026-11-23-hot-path-costs-removed.md).
function invertHex(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += INVERTED[text[i]] ?? text[i];
  return out;
}

export function memberOf(userId: string, reachedMs: number): string {
  const time = (TIME_MAX - BigInt(reachedMs)).toString().padStart(TIME_WIDTH, '0');
  return `${time}:${invertHex(userId.toLowerCase())}`;
}

export function userIdOf(member: string): string {
  return invertHex(member.slice(TIME_WIDTH + 1));
}

/** Exact decimal text (at most 2 places) to integer cents. */
export function centsOf(amount: string): number {
  const [whole, fraction = ''] = amount.split('.');
  return Number(BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2)));
}

/** Integer cents (a Redis score) to decimal text with two places, like Postgres numeric(24,2). */
export function amountText(cents: number | string): string {
  const n = BigInt(Math.round(Number(cents)));
  return `${n / 100n}.${String(n % 100n).padStart(2, '0')}`;
}
