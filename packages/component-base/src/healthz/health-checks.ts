// Named health checks and their evaluation for /healthz, /livez and /readyz, independent of the
// HTTP framework serving them (k8s apiserver/pkg/server/healthz/healthz.go): the gateway's
// node:http2 mux and the operational server's express app both answer from here. Failure
// reasons are logged, never written to the response: the endpoints are usually open.
import type { Logger } from '../logs/index.js';

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

/** What a health endpoint answers: a status code and a plain-text body. */
export interface HealthAnswer {
  code: number;
  body: string;
}

/** The checks of one path, evaluated as a whole or one by name. */
export interface HealthCheckSet {
  readonly path: HealthPath;
  /** `GET <path>`: every check but the excluded ones; `verbose` lists them. */
  all(excluded: readonly string[], verbose: boolean): Promise<HealthAnswer>;
  /** `GET <path>/<name>`: one check; 404 for a name not registered. */
  one(name: string): Promise<HealthAnswer>;
}

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

/** The checks of `path`, a `ping` check first; a name registered twice throws. */
export function healthCheckSet(
  path: HealthPath,
  checks: readonly HealthChecker[],
  log?: HealthLog
): HealthCheckSet {
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

  return {
    path,
    async all(excludedNames, verbose) {
      const excluded = new Set(excludedNames.map((e) => e.trim()).filter((e) => e !== ''));
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
        return { code: 500, body: `${lines}${name} check failed\n` };
      }
      return { code: 200, body: verbose ? `${lines}${name} check passed\n` : 'ok' };
    },
    async one(checkName) {
      const check = byName.get(checkName);
      if (!check) return { code: 404, body: '404 page not found\n' };
      const reason = await run(check);
      if (reason === undefined) return { code: 200, body: 'ok' };
      log?.info(`${name} check failed`, {
        path,
        failed: [check.name],
        reasons: { [check.name]: reason },
      });
      // k8s writes the error here; the reason is withheld as on the combined endpoint.
      return {
        code: 500,
        body: `internal server error: ${check.name} check failed: reason withheld\n`,
      };
    },
  };
}

/** The headers of every health answer (k8s healthz writes these). */
export const healthHeaders = {
  'Content-Type': 'text/plain; charset=utf-8',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache, private',
} as const;
