import { setTimeout as sleep } from 'node:timers/promises';
import type { Suite, SuiteResponse } from './suite.js';

export interface WaitForOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Stops waiting early: a reason why the condition can never become true (e.g. process died). */
  abortReason?: () => string | undefined;
}

/**
 * Polls `ready` until it resolves true. Throws with the abort reason, or with a timeout message
 * naming `what`.
 */
export async function waitFor(
  what: string,
  ready: () => Promise<boolean>,
  opts: WaitForOptions
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const aborted = opts.abortReason?.();
    if (aborted !== undefined) throw new Error(`${what}: ${aborted}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() >= deadline) {
      throw new Error(`${what}: not ready after ${opts.timeoutMs} ms`);
    }
    await sleep(opts.intervalMs ?? 50);
  }
}

/**
 * Asks `gateway` of the suite for `path` until `done` holds for the answer or the time is up,
 * and answers the last answer: the caller asserts on it, so a failure shows what the server
 * said (a status that comes a moment after a write, such as a 503 or 404 meanwhile).
 */
export async function requestUntil(
  suite: Pick<Suite, 'request'>,
  gateway: number,
  path: string,
  done: (r: SuiteResponse) => boolean,
  opts: Omit<WaitForOptions, 'abortReason'>
): Promise<SuiteResponse> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const r = await suite.request(gateway, 'GET', path);
    if (done(r) || Date.now() >= deadline) return r;
    await sleep(opts.intervalMs ?? 50);
  }
}
