/**
 * A bounded map whose entries expire. Concurrent look-ups of one missing key share a single load,
 * so a burst of transfers to a new user asks the owning service once.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private readonly loading = new Map<string, Promise<V>>();

  private readonly maxEntries: number;

  constructor(maxEntries: number) {
    this.maxEntries = maxEntries;
  }

  async get(key: string, ttlMs: (value: V) => number, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const p = load()
      .then((value) => {
        const ttl = ttlMs(value);
        if (ttl > 0) this.set(key, value, ttl);
        return value;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, p);
    return p;
  }

  private set(key: string, value: V, ttl: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, until: Date.now() + ttl });
  }
}
