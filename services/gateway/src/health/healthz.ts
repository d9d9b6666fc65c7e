// /healthz, /livez and /readyz: named checks, each also addressable as <path>/<check>
// (k8s apiserver/pkg/server/healthz/healthz.go). Failure reasons are logged, never written to the
// response: the endpoints are usually reachable without credentials.
import type { HttpRequest, HttpResponse } from '../http/handler.js';
import type { PathMux } from '../http/path-mux.js';
import type { Logger } from '@orch/component-base/logs';
import { requestUrl } from '../http/request-url.js';

/** One named check; it fails by throwing (or rejecting). */
export interface HealthChecker {
  readonly name: string;
  check(): Promise<void> | void;
  /**
   * Listed and addressable, but its failure does not fail the overall result (a dependency only
   * some requests need, as the certificates service for CSR writes).
   */
  readonly informational?: boolean;
}

/** A HealthChecker from a name and a function (k8s healthz.NamedCheck). */
export function healthCheckerFunc(name: string, fn: () => Promise<void> | void): HealthChecker {
  return { name, check: fn };
}

/** Always passes: the process answers HTTP (k8s PingHealthz). */
export const pingHealthChecker: HealthChecker = healthCheckerFunc('ping', () => undefined);

export type HealthPath = '/healthz' | '/livez' | '/readyz';

export type HealthLog = Pick<Logger, 'info'>;

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function run(check: HealthChecker): Promise<string | undefined> {
  try {
    await check.check();
    return undefined;
  } catch (err) {
    return reasonOf(err);
  }
}

function writeText(res: HttpResponse, code: number, body: string): void {
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache, private',
  });
  res.end(body);
}

function searchParams(req: HttpRequest): URLSearchParams {
  return requestUrl(req).searchParams;
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
  const all = checks.some((c) => c.name === pingHealthChecker.name)
    ? [...checks]
    : [pingHealthChecker, ...checks];
  const byName = new Map<string, HealthChecker>();
  for (const c of all) {
    if (byName.has(c.name))
      throw new Error(`health check ${JSON.stringify(c.name)} registered twice for ${path}`);
    byName.set(c.name, c);
  }
  const name = path.slice(1);

  app.get(path, async (req, res) => {
    const params = searchParams(req);
    const excluded = new Set(
      params
        .getAll('exclude')
        .map((e) => e.trim())
        .filter((e) => e !== '')
    );
    let lines = '';
    const failed: string[] = [];
    const reasons: Record<string, string> = {};
    for (const check of all) {
      if (excluded.delete(check.name)) {
        lines += `[+]${check.name} excluded: ok\n`;
        continue;
      }
      const reason = await run(check);
      if (reason === undefined) {
        lines += `[+]${check.name} ok\n`;
      } else if (check.informational) {
        lines += `[-]${check.name} failed (not counted: only some requests need it): reason withheld\n`;
        reasons[check.name] = reason;
      } else {
        lines += `[-]${check.name} failed: reason withheld\n`;
        failed.push(check.name);
        reasons[check.name] = reason;
      }
    }
    if (excluded.size > 0) {
      const quoted = [...excluded]
        .sort()
        .map((e) => JSON.stringify(e))
        .join(', ');
      lines += `warn: some health checks cannot be excluded: no matches for ${quoted}\n`;
    }
    if (failed.length > 0) {
      log?.info(`${name} check failed`, { path, failed, reasons });
      // Like k8s, a failure always answers with the verbose listing.
      writeText(res, 500, `${lines}${name} check failed\n`);
      return;
    }
    writeText(res, 200, params.has('verbose') ? `${lines}${name} check passed\n` : 'ok');
  });

  // `*check` so that names with slashes (k8s `poststarthook/<name>`) are addressable too.
  app.get(`${path}/*check`, async (_req, res, params) => {
    const checkName = params['check'] ?? '';
    const check = byName.get(checkName);
    if (!check) {
      writeText(res, 404, '404 page not found\n');
      return;
    }
    const reason = await run(check);
    if (reason === undefined) {
      writeText(res, 200, 'ok');
      return;
    }
    log?.info(`${name} check failed`, {
      path,
      failed: [check.name],
      reasons: { [check.name]: reason },
    });
    // k8s writes the error here; the reason is withheld as on the combined endpoint.
    writeText(res, 500, `internal server error: ${check.name} check failed: reason withheld\n`);
  });
}
