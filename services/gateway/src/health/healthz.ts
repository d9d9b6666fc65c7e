// /healthz, /livez and /readyz on the gateway's mux: named checks, each also addressable as
// <path>/<check> (k8s apiserver/pkg/server/healthz/healthz.go). The evaluation is the component
// base's, shared with every service's operational server.
import { healthCheckSet, healthHeaders } from '@orch/component-base/healthz';
import type { HealthChecker, HealthLog, HealthPath } from '@orch/component-base/healthz';
import type { HttpResponse } from '../http/handler.js';
import type { PathMux } from '../http/path-mux.js';
import { requestUrl } from '../http/request-url.js';

export type { HealthChecker, HealthLog, HealthPath } from '@orch/component-base/healthz';
export { healthCheckerFunc, pingHealthChecker } from '@orch/component-base/healthz';

function write(res: HttpResponse, answer: { code: number; body: string }): void {
  res.writeHead(answer.code, healthHeaders);
  res.end(answer.body);
}

/**
 * Installs `GET <path>` (all checks but the excluded ones; `?verbose` lists them, `?exclude=<name>`
 * skips one) and `GET <path>/<check>` (one check). A `ping` check is always included first.
 */
export function installHealthChecks(
  app: PathMux,
  path: HealthPath,
  checks: readonly HealthChecker[],
  log?: HealthLog
): void {
  const set = healthCheckSet(path, checks, log);
  app.get(path, async (req, res) => {
    const params = requestUrl(req).searchParams;
    write(res, await set.all(params.getAll('exclude'), params.has('verbose')));
  });
  // `*check` so that names with slashes (k8s `poststarthook/<name>`) are addressable too.
  app.get(`${path}/*check`, async (_req, res, params) => {
    write(res, await set.one(params['check'] ?? ''));
  });
}
