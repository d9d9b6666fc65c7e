// /readyz/admission-service, /readyz/authorizer-service and /readyz/certificates-service: the
// gateway is ready only while the services every request or write needs answer SERVING on
// grpc.health.v1 (without the authorizer every request is 503, without the admission service
// every write fails closed). The certificates service is listed but not counted in the overall
// result: only writes of CertificateSigningRequests need it (they fail closed with 503 without
// it), every other kind is served, so a gateway without it stays in its load balancer's
// rotation; its own path fails while the service is away. Checked on every /readyz, unlike a
// post-start hook. The check goes over the calls' own connection (grpc-js channelOverride): a
// check over a channel of its own may answer SERVING while the calls' channel still waits out
// its reconnect backoff after an outage.
import type { HealthClient } from '@orch/component-base/grpc-server';
import { healthCheckerFunc } from './healthz.js';
import type { HealthChecker } from './healthz.js';

/** A readiness check named `name` that passes while `health` answers SERVING. */
export function serviceCheck(
  name: string,
  what: string,
  health: HealthClient,
  opts: { informational?: boolean } = {}
): HealthChecker {
  const check = healthCheckerFunc(name, async () => {
    const status = await health.check('').catch((err: unknown) => {
      throw new Error(
        `${what} does not answer: ${err instanceof Error ? err.message : String(err)}`
      );
    });
    if (status !== 'SERVING') throw new Error(`${what} is ${status}`);
  });
  return opts.informational ? { ...check, informational: true } : check;
}

export const admissionServiceCheck = (health: HealthClient): HealthChecker =>
  serviceCheck('admission-service', 'the admission service', health);

export const authorizerServiceCheck = (health: HealthClient): HealthChecker =>
  serviceCheck('authorizer-service', 'the authorizer', health);

export const certificatesServiceCheck = (health: HealthClient): HealthChecker =>
  serviceCheck('certificates-service', 'the certificates service', health, {
    informational: true,
  });
