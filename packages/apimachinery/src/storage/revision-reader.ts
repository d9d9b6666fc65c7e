// The current revision, read once for many callers: the gateway's consistent reads from its
// watch cache (k8s cacher's GetCurrentResourceVersionFromStorage) read storage's, and storage
// answers the gateways' CurrentRevision calls with etcd's the same way. A read already in flight
// may have been answered before a request arrived, so a request arriving meanwhile joins the
// next read, which starts when that one ends: every request gets a revision read after it
// arrived (a linearizable read), and at most two reads are ever pending.
export class RevisionReader {
  readonly #read: () => Promise<number>;
  #inflight: Promise<number> | undefined;
  #next: Promise<number> | undefined;
  /** Reads sent to storage (for tests and metrics). */
  reads = 0;

  constructor(read: () => Promise<number>) {
    this.#read = read;
  }

  current(): Promise<number> {
    const running = this.#inflight;
    if (!running) return this.#start();
    this.#next ??= running
      .catch(() => 0)
      .then(() => {
        this.#next = undefined;
        return this.#start();
      });
    return this.#next;
  }

  #start(): Promise<number> {
    this.reads++;
    const p: Promise<number> = this.#read().finally(() => {
      if (this.#inflight === p) this.#inflight = undefined;
    });
    this.#inflight = p;
    return p;
  }
}
