// Objects that exist from the start, as upstream's post-start hooks make them (the system
// namespaces controller, the scheduling hook's system priority classes): each is created through
// its Store unless it exists, retried with a growing pause (1 s, doubling, at most 30 s) for as
// long as storage refuses. It never gives up; readiness reports whether it is done
// (/readyz/poststarthook/..., health/created-check.ts).
import { isAlreadyExists } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Logger } from '@orch/component-base/logs';
import type { Store } from './store.js';

export interface RetryPauses {
  firstMs: number;
  maxMs: number;
}

const defaultPauses: RetryPauses = { firstMs: 1000, maxMs: 30_000 };

/** Resolves true once every object exists, false only when `signal` stops it first. */
export async function createUntilExists(
  store: Pick<Store, 'create'>,
  objects: readonly ApiObject[],
  what: string,
  log: Logger,
  signal?: AbortSignal,
  pauses: RetryPauses = defaultPauses
): Promise<boolean> {
  for (const obj of objects) {
    const name = obj.metadata.name;
    let pause = pauses.firstMs;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) return false;
      try {
        await store.create({}, structuredClone(obj), { dryRun: false });
        log.info(`created ${what}`, { name });
        break;
      } catch (err) {
        if (isAlreadyExists(err)) break;
        log.warn(`could not create ${what}, retrying`, {
          name,
          attempt,
          retryInMs: pause,
          err: String(err),
        });
        await new Promise((r) => setTimeout(r, pause));
        pause = Math.min(pause * 2, pauses.maxMs);
      }
    }
  }
  return !signal?.aborted;
}
