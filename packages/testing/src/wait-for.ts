import { setTimeout as sleep } from 'node:timers/promises';

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
