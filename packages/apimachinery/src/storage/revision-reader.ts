// The current revision, read once for many callers: the gateway's consistent reads from its
// watch cache (k8s cacher's GetCurrentResourceVersionFromStorage) read storage's, and storage
// answers the gateways' CurrentRevision calls with etcd's the same way.
//
// A read answers only the callers that called before it started (a read started earlier may
// have been answered before a write they saw acknowledged): the callers of one event-loop turn
// share a read that starts once the turn's I/O is handled. Reads already in flight are not
// waited for, so a caller waits for one read, not for the end of another first; etcd shares
// its quorum confirmation among concurrent reads anyway. At most `maxInFlight` reads run at
// once: beyond that, the next read starts when one ends, joined by every caller until then.
export class RevisionReader {
  readonly #read: () => Promise<number>;
  readonly #maxInFlight: number;
  /** The read not started yet, which every caller joins. */
  #next: Promise<number> | undefined;
  #inFlight = 0;
  /** Resolved when a read ends, for a read waiting under maxInFlight. */
  #slot: (() => void) | undefined;
  /** Reads sent (for tests). */
  reads = 0;

  constructor(read: () => Promise<number>, opts: { maxInFlight?: number } = {}) {
    this.#read = read;
    this.#maxInFlight = opts.maxInFlight ?? 16;
  }

  current(): Promise<number> {
    this.#next ??= this.#startSoon();
    return this.#next;
  }

  async #startSoon(): Promise<number> {
    await new Promise((r) => setImmediate(r));
    while (this.#inFlight >= this.#maxInFlight) await new Promise<void>((r) => (this.#slot = r));
    // From here on a caller needs a read that starts after it called: the next one.
    this.#next = undefined;
    this.#inFlight++;
    this.reads++;
    try {
      return await this.#read();
    } finally {
      this.#inFlight--;
      const slot = this.#slot;
      this.#slot = undefined;
      slot?.();
    }
  }
}
