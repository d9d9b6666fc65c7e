// /readyz/poststarthook/rbac/bootstrap-roles: in RBAC mode the gateway is ready once the
// authorizer reports its bootstrap policy in place (upstream's apiserver fails this check until
// its RBAC bootstrap post-start hook has run). The authorizer writes that policy through the
// gateway, so the gateway answers requests before it is ready; whoever waits for /readyz (make
// run, the test suite, a load balancer) finds the bootstrap roles and bindings there. Like a
// post-start hook it passes for good once it has passed.
import { bootstrapPolicyHealthService } from '@orch/component-base/grpc-server';
import type { HealthClient } from '@orch/component-base/grpc-server';
import { healthCheckerFunc } from './healthz.js';
import type { HealthChecker } from './healthz.js';

export function bootstrapPolicyCheck(authorizerHealth: HealthClient): HealthChecker {
  let done = false;
  return healthCheckerFunc('poststarthook/rbac/bootstrap-roles', async () => {
    if (done) return;
    const status = await authorizerHealth.check(bootstrapPolicyHealthService);
    if (status !== 'SERVING') {
      throw new Error('the authorizer has not reconciled its bootstrap policy yet');
    }
    done = true;
  });
}
