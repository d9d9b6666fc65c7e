// The operational server of every process, on express over node:https (upstream's components
// serve the same on their secure port): /metrics, /healthz, /livez and /readyz with per-check
// paths, /configz, /flagz, /debug/flags/v (the log level, read and set at runtime) and, with
// --profiling, /debug/pprof/profile and /debug/pprof/heap. Every request is authenticated and
// authorized by the API (DelegatingAuth) but the always-allowed paths.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { Registry } from 'prom-client';
import { healthCheckSet, healthHeaders } from '../healthz/index.js';
import type { HealthAnswer, HealthChecker, HealthPath } from '../healthz/index.js';
import type { LogLevel, Logger } from '../logs/index.js';
import { DelegatingAuth } from './delegating-auth.js';
import type { OperationalOptions } from './operational-flags.js';
import {
  cpuProfileAnswer,
  heapSnapshot,
  heapSnapshotHeaders,
  readLogLevel,
  writeLogLevel,
} from './debug-endpoints.js';
import type { DebugAnswer } from './debug-endpoints.js';
import { redact } from './redact.js';

export interface OperationalServerConfig {
  /** The component's name: /configz's key, /flagz's title. */
  component: string;
  options: OperationalOptions;
  registry: Registry;
  log: Logger;
  /** The level the process started with (what /debug/flags/v reads until it is set). */
  logLevel: LogLevel;
  healthz?: readonly HealthChecker[];
  livez?: readonly HealthChecker[];
  readyz?: readonly HealthChecker[];
  /** The effective configuration (secrets are redacted before it is served). */
  configz: () => unknown;
}

export interface OperationalServer {
  readonly port: number;
  close(): Promise<void>;
}

function text(res: Response, code: number, body: string): void {
  res.status(code).set(healthHeaders).send(body);
}

function status(res: Response, code: number, reason: string, message: string): void {
  res.status(code).json({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  });
}

function installHealth(
  app: express.Express,
  path: HealthPath,
  checks: readonly HealthChecker[],
  log: Logger
): void {
  const set = healthCheckSet(path, checks, log);
  const send = (res: Response, a: HealthAnswer): void => text(res, a.code, a.body);
  app.get(path, async (req, res) => {
    const params = new URL(req.originalUrl, 'https://x').searchParams;
    send(res, await set.all(params.getAll('exclude'), params.has('verbose')));
  });
  app.get(`${path}/*check`, async (req, res) => {
    const check = (req.params as Record<string, string[] | undefined>)['check'] ?? [];
    send(res, await set.one(check.join('/')));
  });
}

function send(res: Response, a: DebugAnswer): void {
  res.status(a.code).set(a.headers).send(a.body);
}

/** /debug/flags/v and /debug/pprof/*: upstream installs them together under --profiling. */
function installDebug(app: express.Express, c: OperationalServerConfig): void {
  app.get('/debug/flags/v', (_req, res) => send(res, readLogLevel(c.logLevel)));
  app.put('/debug/flags/v', express.text({ type: () => true, limit: '1kb' }), (req, res) =>
    send(res, writeLogLevel(typeof req.body === 'string' ? req.body : '', c.log))
  );
  app.get('/debug/pprof/profile', async (req, res) => {
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const seconds = typeof req.query['seconds'] === 'string' ? req.query['seconds'] : undefined;
    send(res, await cpuProfileAnswer(seconds, c.component, gone.signal));
  });
  app.get('/debug/pprof/heap', async (_req, res) => {
    res.status(200).set(heapSnapshotHeaders(c.component));
    await heapSnapshot((chunk) => res.write(chunk));
    res.end();
  });
}

/** The express app (exported for tests that serve it themselves). */
export function operationalApp(c: OperationalServerConfig, auth: DelegatingAuth): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use((req: Request, res: Response, next: NextFunction) => {
    auth.decide(req, req.path).then(
      (d) => {
        c.log.debug('operational request', {
          method: req.method,
          path: req.path,
          user: d.allowed ? d.user?.username : undefined,
          code: d.allowed ? undefined : d.code,
        });
        if (d.allowed) return next();
        if (d.code === 401) return status(res, 401, 'Unauthorized', 'Unauthorized');
        status(res, 403, 'Forbidden', d.reason);
      },
      (err: unknown) => {
        c.log.warn('operational request not authorized: the review failed', { err });
        status(res, 500, 'InternalError', 'Internal error occurred: authorization failed');
      }
    );
  });

  app.get('/metrics', async (_req, res) => {
    res.set('Content-Type', c.registry.contentType).send(await c.registry.metrics());
  });
  installHealth(app, '/healthz', c.healthz ?? [], c.log);
  installHealth(app, '/livez', c.livez ?? [], c.log);
  installHealth(app, '/readyz', c.readyz ?? [], c.log);

  app.get('/configz', (_req, res) => {
    res.json({ [c.component]: redact(c.configz()) });
  });
  app.get('/flagz', (_req, res) => {
    const flags = redact(c.options.flags) as Record<string, unknown>;
    const lines = Object.keys(flags)
      .sort()
      .map((k) => `${k}=${flags[k] === undefined ? '' : String(flags[k])}`);
    res.type('text/plain').send(`${c.component} flags\n\n${lines.join('\n')}\n`);
  });

  if (c.options.profiling) installDebug(app, c);
  return app;
}

/** Serves the operational app on the options' address; not started when the port is 0. */
export async function startOperationalServer(
  c: OperationalServerConfig
): Promise<OperationalServer | undefined> {
  const { options } = c;
  if (options.securePort === 0 || !options.tls) return undefined;
  const { certFile, keyFile, caFile } = options.tls;
  const [cert, key, ca] = await Promise.all([
    readFile(certFile),
    readFile(keyFile),
    caFile ? readFile(caFile) : undefined,
  ]);
  const app = operationalApp(c, new DelegatingAuth(options));
  // A client certificate is asked for, not required: a bearer token or no credentials (for the
  // always-allowed paths) are as welcome; an unverified certificate authenticates nobody.
  const server: Server = createServer(
    { cert, key, ...(ca ? { ca, requestCert: true, rejectUnauthorized: false } : {}) },
    app
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.securePort, options.bindAddress, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  c.log.info('operational server listening', { address: options.bindAddress, port });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
