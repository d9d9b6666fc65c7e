import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createServer } from 'node:http';
import { requestListener } from '../http/handler.js';
import { PathMux } from '../http/path-mux.js';
import { healthCheckerFunc, installHealthChecks } from './healthz.js';
import type { HealthLog } from './healthz.js';

const secret = 'dial tcp 10.0.0.7:2379: password=hunter2';

describe('installHealthChecks', () => {
  const logged: { msg: string; fields?: Record<string, unknown> }[] = [];
  const log: HealthLog = { info: (msg, fields) => void logged.push({ msg, fields }) };
  let base = '';
  let close: () => Promise<void> = async () => undefined;

  before(async () => {
    const app = new PathMux();
    installHealthChecks(
      app,
      '/livez',
      [healthCheckerFunc('log', () => undefined), healthCheckerFunc('etcd', async () => undefined)],
      log
    );
    installHealthChecks(
      app,
      '/readyz',
      [
        healthCheckerFunc('etcd', () => undefined),
        healthCheckerFunc('storage', async () => {
          throw new Error(secret);
        }),
        healthCheckerFunc('poststarthook/start-informers', () => undefined),
      ],
      log
    );
    installHealthChecks(app, '/healthz', [
      healthCheckerFunc('etcd', () => undefined),
      {
        name: 'certificates-service',
        informational: true,
        check: () => {
          throw new Error(secret);
        },
      },
    ]);
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

  const get = async (
    path: string
  ): Promise<{ status: number; body: string; type: string | null }> => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
  };

  it('an informational check is listed failed but does not fail the result', async () => {
    const all = await get('/healthz?verbose');
    assert.equal(all.status, 200);
    assert.equal(
      all.body,
      '[+]ping ok\n[+]etcd ok\n' +
        '[-]certificates-service failed (not counted: only some requests need it): reason withheld\n' +
        'healthz check passed\n'
    );
    const one = await get('/healthz/certificates-service');
    assert.equal(one.status, 500);
    assert.ok(!one.body.includes('hunter2'));
  });

  it('answers ok, and lists every check with ?verbose', async () => {
    assert.deepEqual(await get('/livez'), {
      status: 200,
      body: 'ok',
      type: 'text/plain; charset=utf-8',
    });
    const verbose = await get('/livez?verbose');
    assert.equal(verbose.status, 200);
    assert.equal(verbose.body, '[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n');
  });

  it('fails with 500, always verbose, the reason withheld from the body and logged', async () => {
    logged.length = 0;
    const res = await get('/readyz');
    assert.equal(res.status, 500);
    assert.equal(
      res.body,
      '[+]ping ok\n[+]etcd ok\n[-]storage failed: reason withheld\n[+]poststarthook/start-informers ok\nreadyz check failed\n'
    );
    assert.ok(!res.body.includes('hunter2'));
    assert.deepEqual(logged, [
      {
        msg: 'readyz check failed',
        fields: { path: '/readyz', failed: ['storage'], reasons: { storage: secret } },
      },
    ]);
  });

  it('skips excluded checks and warns about unknown ones', async () => {
    const res = await get('/readyz?verbose&exclude=storage&exclude=nope&exclude=etcd');
    assert.equal(res.status, 200);
    assert.equal(
      res.body,
      '[+]ping ok\n[+]etcd excluded: ok\n[+]storage excluded: ok\n[+]poststarthook/start-informers ok\n' +
        'warn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n'
    );
  });

  it('runs one check at <path>/<name>', async () => {
    assert.deepEqual(await get('/readyz/etcd'), {
      status: 200,
      body: 'ok',
      type: 'text/plain; charset=utf-8',
    });
    assert.equal((await get('/readyz/ping')).body, 'ok');
    assert.equal((await get('/readyz/poststarthook/start-informers')).status, 200);
    logged.length = 0;
    const failed = await get('/readyz/storage');
    assert.equal(failed.status, 500);
    assert.ok(!failed.body.includes('hunter2'), failed.body);
    assert.match(failed.body, /reason withheld/);
    assert.equal(logged.length, 1);
    assert.equal((await get('/readyz/nope')).status, 404);
    assert.equal((await get('/livez/storage')).status, 404);
  });

  it('rejects two checks of one name', () => {
    const app = new PathMux();
    assert.throws(
      () =>
        installHealthChecks(app, '/healthz', [
          healthCheckerFunc('a', () => undefined),
          healthCheckerFunc('a', () => undefined),
        ]),
      /registered twice/
    );
  });
});
