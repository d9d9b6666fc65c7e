// The last step of every service (kcp's `server.Run(ctx)`): `run(signal)` listens, starts its
// informers and loops, serves until the signal aborts, then stops gracefully (readiness fails
// first) and resolves. `serving` resolves once it listens, with the port it listens on.
import type { Logger } from '../logs/index.js';
import { onShutdown } from '../shutdown/index.js';

export interface Runnable {
  /** Resolves with the port once the server listens; rejects if run() fails before that. */
  readonly serving: Promise<number>;
  run(signal: AbortSignal): Promise<void>;
}

/** A promise with its settle functions outside (the `serving` promise of a Runnable). */
export class Deferred<T> {
  readonly promise: Promise<T>;
  resolve!: (value: T) => void;
  reject!: (reason: unknown) => void;

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A caller that never awaits it does not make an unhandled rejection.
    this.promise.catch(() => undefined);
  }
}

/**
 * What `main.ts` does with its server: run it until SIGTERM / SIGINT (the same shutdown handling
 * as `onShutdown`: once, a second signal exits 1, a 30 s limit), and exit 1 if it fails.
 */
export function runUntilSignal(log: Logger, server: Runnable): void {
  const stop = new AbortController();
  const running = server.run(stop.signal);
  running.catch((err: unknown) => {
    log.error('server failed', { err: err instanceof Error ? (err.stack ?? err.message) : err });
    process.exit(1);
  });
  onShutdown(log, [
    async () => {
      stop.abort();
      await running;
    },
  ]);
}

/** A server running in the background (tests): its port; `stop()` aborts it and waits. */
export interface Started {
  port: number;
  stop(): Promise<void>;
}

/** For tests: runs the server in the background; `stop()` aborts it and waits for the end. */
export async function startInBackground(server: Runnable): Promise<Started> {
  const stop = new AbortController();
  const running = server.run(stop.signal);
  running.catch(() => undefined);
  const port = await Promise.race([server.serving, running.then(() => -1)]);
  if (port < 0) throw new Error('the server stopped before it served');
  return {
    port,
    async stop() {
      stop.abort();
      await running;
    },
  };
}

/** Resolves when the signal aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true })
  );
}
