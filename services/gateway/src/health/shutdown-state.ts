// Start-up and shutdown as health checks see them (k8s --shutdown-delay-duration and
// --livez-grace-period): on shutdown /readyz fails first, so load balancers drain the instance,
// while /livez and /healthz stay OK until the process really stops.
import { setTimeout as sleep } from 'node:timers/promises';
import { healthCheckerFunc } from './healthz.js';
import type { HealthChecker } from './healthz.js';

export interface ShutdownStateOptions {
  /** Milliseconds on a monotonic clock; defaults to performance.now. */
  now?: () => number;
}

export class ShutdownState {
  readonly #now: () => number;
  readonly #startedAt: number;
  #shutdown: Promise<void> | undefined;

  /** The `shutdown` readyz check: fails from the moment beginShutdown() is called. */
  readonly readyzCheck: HealthChecker = healthCheckerFunc('shutdown', () => {
    if (this.#shutdown) throw new Error('process is shutting down');
  });

  constructor(options: ShutdownStateOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#startedAt = this.#now();
  }

  get shuttingDown(): boolean {
    return this.#shutdown !== undefined;
  }

  /**
   * Marks the server as shutting down (readyz fails at once) and resolves after `delayMs`, the
   * shutdown delay during which the server keeps serving while clients move away. Later calls
   * return the first call's promise.
   */
  beginShutdown(delayMs = 0): Promise<void> {
    this.#shutdown ??= delayMs > 0 ? sleep(delayMs) : Promise.resolve();
    return this.#shutdown;
  }

  /**
   * Wraps livez checks so that, during the first `ms` after this state was created, they are not
   * run and count as passing (k8s delays them the same way: a slow start is not a dead process).
   */
  livezGracePeriod(ms: number): (check: HealthChecker) => HealthChecker {
    return (check) =>
      healthCheckerFunc(check.name, () => {
        if (this.#now() - this.#startedAt < ms) return undefined;
        return check.check();
      });
  }
}
