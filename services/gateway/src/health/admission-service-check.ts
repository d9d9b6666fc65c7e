// /readyz/admission-service: the gateway is ready only while the admission service answers
// SERVING on grpc.health.v1 (writes fail closed without it). Checked on every /readyz, unlike a
// post-start hook: a gateway whose admission service is gone is not ready for writes.
import type { HealthClient } from '@orch/component-base/grpc-server';
import { healthCheckerFunc } from './healthz.js';
import type { HealthChecker } from './healthz.js';

export function admissionServiceCheck(health: HealthClient): HealthChecker {
  return healthCheckerFunc('admission-service', async () => {
    const status = await health.check('').catch((err: unknown) => {
      throw new Error(
        `the admission service does not answer: ${err instanceof Error ? err.message : String(err)}`
      );
    });
    if (status !== 'SERVING') throw new Error(`the admission service is ${status}`);
  });
}
