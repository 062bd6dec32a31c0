/**
 * Polls `probe` until it resolves to a value (not undefined) and returns that value. A probe that
 * throws is tried again; at the deadline the last error, or "not met", fails the test.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw lastError ?? new Error(`not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Polls `check` until it stops throwing (its assertions pass) and returns what it returned, which
 * may be nothing; at the deadline its last error fails the test.
 */
export async function eventuallyPasses<T>(check: () => Promise<T>, timeoutMs?: number): Promise<T> {
  const passed = await eventually(async () => ({ value: await check() }), timeoutMs);
  return passed.value;
}
