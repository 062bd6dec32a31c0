/** One line of the final read: what was checked, its figure, and what broke it. */
export interface CheckResult {
  name: string;
  ok: boolean;
  figure: string;
  problems: string[];
}

export function check(name: string, figure: string, problems: string[]): CheckResult {
  return { name, ok: problems.length === 0, figure, problems };
}

/** Exact decimal text to cents, so sums of coins never meet a float. */
export function cents(amount: string | number): bigint {
  const [whole, fraction = ''] = String(amount).split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '')) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2)));
}

/** The keys whose values differ between two maps of cents, described. */
export function differences(
  label: string,
  expected: Map<string, bigint>,
  actual: Map<string, bigint>,
): string[] {
  const out: string[] = [];
  for (const key of new Set([...expected.keys(), ...actual.keys()])) {
    const e = expected.get(key) ?? 0n;
    const a = actual.get(key) ?? 0n;
    if (e !== a) out.push(`${label} ${key}: expected ${e} cents, found ${a}`);
  }
  return out;
}
