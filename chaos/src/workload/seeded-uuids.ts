import type { SeededRandom } from '@coin/testing';

export type SeededUuids = () => string;

/** Version-4-shaped UUIDs drawn from the run's random source, so a seed names the same users and keys. */
export function seededUuids(random: SeededRandom): SeededUuids {
  const hex = (n: number) => Array.from({ length: n }, () => random.below(16).toString(16)).join('');
  return () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[random.below(4)]}${hex(3)}-${hex(12)}`;
}
