import { randomInt } from 'node:crypto';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export interface SeededRandom {
  seed: number;
  /** An integer in [0, n). */
  below(n: number): number;
  /** One of `items`. */
  pick<T>(items: readonly T[]): T;
}

/**
 * The random source of a test's workload: `SEED` from the environment or a fresh one, printed with
 * the test's name so that a failing run can be replayed exactly (`SEED=<n> npx vitest run <file>`).
 */
export function seededRandom(label: string, env: NodeJS.ProcessEnv = process.env): SeededRandom {
  const seed = env.SEED ? Number(env.SEED) : randomInt(2 ** 31);
  if (!Number.isSafeInteger(seed)) throw new Error(`SEED must be an integer, got ${env.SEED}`);
  console.log(`${label}: seed ${seed} (replay with SEED=${seed})`);
  const rng = xoroshiro128plus(seed);
  const below = (n: number) => uniformInt(rng, 0, n - 1);
  return { seed, below, pick: (items) => items[below(items.length)] };
}
