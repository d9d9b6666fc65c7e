// /readyz/poststarthook/<name> (upstream's post-start hook checks): not ready until the work the
// hook started has finished (the system namespaces and priority classes created), ready for good
// afterwards.
import { healthCheckerFunc } from './healthz.js';
import type { HealthChecker } from './healthz.js';

export function postStartHookCheck(name: string, done: () => boolean): HealthChecker {
  return healthCheckerFunc(`poststarthook/${name}`, () => {
    if (!done()) throw new Error('not finished');
  });
}
