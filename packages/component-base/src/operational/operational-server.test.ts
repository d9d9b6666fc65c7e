// The operational server in process, over HTTPS with certificates of a test CA: the open health
// paths, client certificates authenticating (system:masters allowed, anyone else refused without
// an authorization kubeconfig), /configz redacted, the log level set at runtime, a CPU profile and
// a heap snapshot parsed. The delegation to TokenReview and SubjectAccessReview is covered
// against a running suite (e2e).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Counter, Registry } from 'prom-client';
import { healthCheckerFunc } from '../healthz/index.js';
import { createLogger, setRuntimeLogLevel } from '../logs/index.js';
import { createCertificateAuthority, issueCertificate } from '../pki/index.js';
import type { KeyPairPem } from '../pki/index.js';
import { operationalOptions } from './operational-flags.js';
import { startOperationalServer } from './operational-server.js';
import type { OperationalServer } from './operational-server.js';

/** The operational flags as parsed: those not given undefined. */
function opFlags(
  given: Partial<Record<'authorization-always-allow-paths' | 'profiling' | 'bearer-token', string>>
): Parameters<typeof operationalOptions>[0] {
  return {
    'authentication-kubeconfig': undefined,
    'authorization-kubeconfig': undefined,
    'authorization-always-allow-paths': '/healthz,/readyz,/livez',
    profiling: 'true',
    ...given,
  };
}

interface Answer {
  code: number;
  body: string;
  type: string;
}

let dir: string;
let ca: KeyPairPem;
let admin: KeyPairPem;
let bob: KeyPairPem;
let server: OperationalServer;
let unprofiled: OperationalServer;
let broken = false;

function call(
  port: number,
  path: string,
  opts: { as?: KeyPairPem; method?: string; body?: string } = {}
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        ca: ca.certPem,
        ...(opts.as ? { cert: opts.as.certPem, key: opts.as.keyPem } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            code: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            type: res.headers['content-type'] ?? '',
          })
        );
      }
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('operational server', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-operational-'));
    ca = await createCertificateAuthority({ commonName: 'test-ca' });
    const serving = await issueCertificate(ca, {
      commonName: 'svc',
      ipAddresses: ['127.0.0.1'],
      usages: ['server'],
    });
    admin = await issueCertificate(ca, {
      commonName: 'orch-admin',
      organizations: ['system:masters'],
      usages: ['client'],
    });
    bob = await issueCertificate(ca, { commonName: 'bob', usages: ['client'] });
    const files = {
      certFile: join(dir, 's.crt'),
      keyFile: join(dir, 's.key'),
      caFile: join(dir, 'ca.crt'),
    };
    await writeFile(files.certFile, serving.certPem);
    await writeFile(files.keyFile, serving.keyPem);
    await writeFile(files.caFile, ca.certPem);
    const registry = new Registry();
    new Counter({ name: 'orch_test_things_total', help: 'Things.', registers: [registry] }).inc();
    const base = {
      component: 'test',
      registry,
      log: createLogger('test', 'info'),
      logLevel: 'info' as const,
      readyz: [
        healthCheckerFunc('etcd', () => {
          if (broken) throw new Error('etcd down');
        }),
        healthCheckerFunc('poststarthook/a', () => undefined),
      ],
      configz: () => ({
        etcdServers: ['a'],
        tlsCertFile: '/x.crt',
        bearerToken: 's3cr3t',
        key: Buffer.from('k'),
      }),
    };
    const flags = opFlags({ 'bearer-token': 's3cr3t' });
    const serving0 = { bindAddress: '127.0.0.1', securePort: 0, tls: files };
    // Port 0 is "not served": the tests ask for a free port by listening on one first.
    const free = async (): Promise<number> => {
      const { createServer } = await import('node:net');
      const s = createServer();
      await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
      const port = (s.address() as { port: number }).port;
      await new Promise<void>((r) => s.close(() => r()));
      return port;
    };
    const started = await startOperationalServer({
      ...base,
      options: operationalOptions(flags, { ...serving0, securePort: await free() }),
    });
    const startedUnprofiled = await startOperationalServer({
      ...base,
      options: operationalOptions(opFlags({ profiling: 'false' }), {
        ...serving0,
        securePort: await free(),
      }),
    });
    assert.ok(started && startedUnprofiled);
    server = started;
    unprofiled = startedUnprofiled;
  });

  after(async () => {
    setRuntimeLogLevel('info');
    await server?.close();
    await unprofiled?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is not served on port 0', async () => {
    const off = await startOperationalServer({
      component: 'off',
      registry: new Registry(),
      log: createLogger('off'),
      logLevel: 'info',
      configz: () => ({}),
      options: operationalOptions(opFlags({}), {
        bindAddress: '127.0.0.1',
        securePort: 0,
        tls: undefined,
      }),
    });
    assert.equal(off, undefined);
  });

  it('health paths are open: overall, verbose, per check, excluded', async () => {
    assert.deepEqual(await call(server.port, '/healthz').then((a) => [a.code, a.body]), [
      200,
      'ok',
    ]);
    const verbose = await call(server.port, '/readyz?verbose');
    assert.equal(verbose.code, 200);
    assert.match(
      verbose.body,
      /\[\+\]ping ok\n\[\+\]etcd ok\n\[\+\]poststarthook\/a ok\nreadyz check passed/
    );
    // Upstream's always-allowed paths are exact: a check's own path needs authorization.
    assert.equal((await call(server.port, '/readyz/poststarthook/a')).code, 401);
    assert.equal((await call(server.port, '/readyz/poststarthook/a', { as: admin })).code, 200);
    assert.equal((await call(server.port, '/readyz/nope', { as: admin })).code, 404);
    broken = true;
    try {
      const failed = await call(server.port, '/readyz');
      assert.equal(failed.code, 500);
      assert.match(failed.body, /\[-\]etcd failed: reason withheld/);
      assert.doesNotMatch(failed.body, /etcd down/);
      assert.equal((await call(server.port, '/readyz?exclude=etcd')).code, 200);
      assert.equal((await call(server.port, '/livez')).code, 200);
    } finally {
      broken = false;
    }
  });

  it('refuses without credentials (401) and without permission (403)', async () => {
    for (const path of ['/metrics', '/configz', '/flagz', '/debug/flags/v', '/debug/pprof/heap']) {
      assert.equal((await call(server.port, path)).code, 401, path);
      const forbidden = await call(server.port, path, { as: bob });
      assert.equal(forbidden.code, 403, path);
      assert.match(forbidden.body, /User \\"bob\\" cannot get path/);
    }
  });

  it('serves /metrics to system:masters', async () => {
    const metrics = await call(server.port, '/metrics', { as: admin });
    assert.equal(metrics.code, 200);
    assert.match(metrics.body, /^orch_test_things_total 1$/m);
  });

  it('/configz shows the configuration with secrets redacted; /flagz the flags', async () => {
    const configz = JSON.parse(
      (await call(server.port, '/configz', { as: admin })).body
    ) as unknown;
    assert.deepEqual(configz, {
      test: {
        etcdServers: ['a'],
        tlsCertFile: '/x.crt',
        bearerToken: '[redacted]',
        key: '[redacted]',
      },
    });
    const flagz = await call(server.port, '/flagz', { as: admin });
    assert.equal(
      flagz.body,
      'test flags\n\nauthentication-kubeconfig=\nauthorization-always-allow-paths=/healthz,/readyz,/livez\n' +
        'authorization-kubeconfig=\nbearer-token=[redacted]\nprofiling=true\n'
    );
  });

  it('/debug/flags/v reads and sets the log level; a debug line is then written', async () => {
    assert.equal((await call(server.port, '/debug/flags/v', { as: admin })).body, 'info');
    const bad = await call(server.port, '/debug/flags/v', {
      as: admin,
      method: 'PUT',
      body: 'loud',
    });
    assert.equal(bad.code, 400);
    const log = createLogger('probe', 'info');
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      log.debug('before');
      const set = await call(server.port, '/debug/flags/v', {
        as: admin,
        method: 'PUT',
        body: 'debug',
      });
      assert.equal(set.code, 200);
      log.debug('after');
    } finally {
      process.stderr.write = write;
    }
    assert.ok(!lines.some((l) => l.includes('"before"')));
    assert.ok(lines.some((l) => l.includes('"msg":"after"') && l.includes('"level":"debug"')));
    assert.equal((await call(server.port, '/debug/flags/v', { as: admin })).body, 'debug');
    setRuntimeLogLevel('info');
  });

  it('takes a CPU profile and a heap snapshot that parse', async () => {
    const profile = await call(server.port, '/debug/pprof/profile?seconds=0.3', { as: admin });
    assert.equal(profile.code, 200);
    const cpu = JSON.parse(profile.body) as {
      nodes: unknown[];
      startTime: number;
      endTime: number;
    };
    assert.ok(cpu.nodes.length > 0 && cpu.endTime > cpu.startTime);
    assert.equal(
      (await call(server.port, '/debug/pprof/profile?seconds=9999', { as: admin })).code,
      400
    );
    const heap = await call(server.port, '/debug/pprof/heap', { as: admin });
    assert.equal(heap.code, 200);
    const snapshot = JSON.parse(heap.body) as {
      snapshot: { meta: { node_fields: string[] } };
      nodes: number[];
    };
    assert.ok(snapshot.snapshot.meta.node_fields.includes('name'));
    assert.ok(snapshot.nodes.length > 0);
  });

  it('serves no profiles and no /debug/flags/v with --profiling=false, as upstream', async () => {
    assert.equal((await call(unprofiled.port, '/debug/flags/v', { as: admin })).code, 404);
    assert.equal((await call(unprofiled.port, '/debug/pprof/heap', { as: admin })).code, 404);
    assert.equal(
      (await call(unprofiled.port, '/debug/pprof/profile?seconds=1', { as: admin })).code,
      404
    );
  });
});
