// /debug/pprof/profile, /debug/pprof/heap and /debug/flags/v on the API port, behind
// authentication and authorization like any non-resource URL (upstream kube-apiserver installs
// routes.Profiling and routes.DebugFlags under --profiling). The answers are the operational
// server's (`@orch/component-base/operational`), so every process profiles the same way.
import {
  cpuProfileAnswer,
  heapSnapshot,
  heapSnapshotHeaders,
  readLogLevel,
  writeLogLevel,
} from '@orch/component-base/operational';
import type { DebugAnswer } from '@orch/component-base/operational';
import type { LogLevel, Logger } from '@orch/component-base/logs';
import type { HttpResponse } from '../http/handler.js';
import type { PathMux } from '../http/path-mux.js';
import { requestUrl } from '../http/request-url.js';
import { bodyFrom } from '../request/context.js';

function send(res: HttpResponse, a: DebugAnswer): void {
  res.writeHead(a.code, a.headers);
  res.end(a.body);
}

export function installDebug(
  mux: PathMux,
  c: { component: string; logLevel: LogLevel; log: Logger }
): void {
  mux.get('/debug/flags/v', (_req, res) => send(res, readLogLevel(c.logLevel)));
  // The chain read the body (within --max-request-body-bytes) before routing.
  mux.put('/debug/flags/v', (req, res) =>
    send(res, writeLogLevel(bodyFrom(req)?.toString('utf8') ?? '', c.log))
  );
  mux.get('/debug/pprof/profile', async (req, res) => {
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const seconds = requestUrl(req).searchParams.get('seconds');
    send(res, await cpuProfileAnswer(seconds, c.component, gone.signal));
  });
  mux.get('/debug/pprof/heap', async (_req, res) => {
    res.writeHead(200, heapSnapshotHeaders(c.component));
    await heapSnapshot((chunk) => res.write(chunk));
    res.end();
  });
}
