// Callers waiting, each with a deadline, for a revision to be reached: the watch cache's
// freshness waits and the change stream's progress waits (k8s cacher's waitUntilFreshAndBlock).
interface Waiter {
  revision: number;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

export class RevisionWaiters {
  #waiters: Waiter[] = [];

  /** Resolves true once reached(r) is called with r >= `revision`, false after `timeoutMs`. */
  wait(revision: number, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const w: Waiter = {
        revision,
        resolve,
        timer: setTimeout(() => {
          this.#waiters = this.#waiters.filter((x) => x !== w);
          resolve(false);
        }, timeoutMs),
      };
      this.#waiters.push(w);
    });
  }

  /** Resolves (true) every wait for `revision` or an older one. */
  reached(revision: number): void {
    if (this.#waiters.length === 0) return;
    const rest: Waiter[] = [];
    for (const w of this.#waiters) {
      if (w.revision <= revision) {
        clearTimeout(w.timer);
        w.resolve(true);
      } else rest.push(w);
    }
    this.#waiters = rest;
  }

  /** Resolves every wait false (the waited-on thing stops). */
  cancelAll(): void {
    for (const w of this.#waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
  }
}
