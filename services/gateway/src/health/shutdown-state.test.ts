import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createServer } from 'node:http';
import { requestListener } from '../http/handler.js';
import { PathMux } from '../http/path-mux.js';
import { healthCheckerFunc, installHealthChecks } from './healthz.js';
import { ShutdownState } from './shutdown-state.js';

describe('ShutdownState', () => {
  let now = 1_000;
  const state = new ShutdownState({ now: () => now });
  let etcdRuns = 0;
  const etcd = healthCheckerFunc('etcd', () => {
    etcdRuns += 1;
    throw new Error('etcd not reachable');
  });
  const graced = state.livezGracePeriod(5_000);
  let base = '';
  let close: () => Promise<void> = async () => undefined;

  before(async () => {
    const app = new PathMux();
    installHealthChecks(app, '/healthz', []);
    installHealthChecks(app, '/livez', [graced(etcd)]);
    installHealthChecks(app, '/readyz', [state.readyzCheck]);
    const server = createServer(
      requestListener(
        app.handler((_req, res) => {
          res.statusCode = 404;
          res.end();
        })
      )
    ).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  });
  after(() => close());

  const get = async (path: string): Promise<{ status: number; body: string }> => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: await res.text() };
  };

  it('reports livez failures as ok, without running the check, during the grace period', async () => {
    assert.deepEqual(await get('/livez?verbose'), {
      status: 200,
      body: '[+]ping ok\n[+]etcd ok\nlivez check passed\n',
    });
    assert.equal((await get('/livez/etcd')).status, 200);
    assert.equal(etcdRuns, 0);
    now += 4_999;
    assert.equal((await get('/livez')).status, 200);
    now += 1;
    assert.deepEqual(await get('/livez'), {
      status: 500,
      body: '[+]ping ok\n[-]etcd failed: reason withheld\nlivez check failed\n',
    });
    assert.equal(etcdRuns, 1);
  });

  it('fails readyz at once on shutdown while healthz stays ok, resolving after the delay', async () => {
    assert.equal(state.shuttingDown, false);
    assert.deepEqual(await get('/readyz?verbose'), {
      status: 200,
      body: '[+]ping ok\n[+]shutdown ok\nreadyz check passed\n',
    });
    const started = Date.now();
    const delayed = state.beginShutdown(100);
    assert.equal(state.shuttingDown, true);
    assert.deepEqual(await get('/readyz'), {
      status: 500,
      body: '[+]ping ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n',
    });
    assert.equal((await get('/readyz/shutdown')).status, 500);
    assert.deepEqual(await get('/healthz'), { status: 200, body: 'ok' });
    assert.strictEqual(state.beginShutdown(0), delayed);
    await delayed;
    assert.ok(Date.now() - started >= 90);
  });
});
