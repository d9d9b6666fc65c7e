// /readyz/certificates-service: whether the certificates service answers SERVING on
// grpc.health.v1. Listed in /readyz but not counted in its overall result: only writes of
// CertificateSigningRequests need the service (they fail closed with 503 without it), every
// other kind is served, so a gateway without it stays in its load balancer's rotation. The
// check itself, /readyz/certificates-service, fails while the service is away.
import type { HealthClient } from '@orch/component-base/grpc-server';
import type { HealthChecker } from './healthz.js';

export function certificatesServiceCheck(health: HealthClient): HealthChecker {
  return {
    name: 'certificates-service',
    informational: true,
    async check() {
      const status = await health.check('').catch((err: unknown) => {
        throw new Error(
          `the certificates service does not answer: ${err instanceof Error ? err.message : String(err)}`
        );
      });
      if (status !== 'SERVING') throw new Error(`the certificates service is ${status}`);
    },
  };
}
