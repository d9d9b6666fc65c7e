// A size-bounded cache whose entries expire (k8s.io/apimachinery/pkg/util/cache LRUExpireCache):
// the least recently used entry goes first when full; an entry past its time is gone.
export class ExpireCache<V> {
  readonly #max: number;
  readonly #now: () => number;
  // A Map iterates in insertion order: re-inserting on use keeps the oldest use first.
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(maxSize: number, now: () => number = Date.now) {
    this.#max = maxSize;
    this.#now = now;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    this.#entries.delete(key);
    if (this.#now() > e.expiresAt) return undefined;
    this.#entries.set(key, e);
    return e.value;
  }

  /** Adds or replaces an entry for `ttlMs`; a ttl of 0 or less caches nothing. */
  add(key: string, value: V, ttlMs: number): void {
    this.#entries.delete(key);
    if (ttlMs <= 0) return;
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}
