// The real clients over each protocol of the one serving port: kubectl (client-go) negotiates
// HTTP/2 by ALPN and multiplexes its discovery, lists, writes and a watch over it, and falls back
// to HTTP/1.1 with DISABLE_HTTP2 (client-go's k8s.io/apimachinery/pkg/util/net SetTransportDefaults);
// @kubernetes/client-node (node-fetch over an https.Agent) speaks HTTP/1.1 only. The protocol is
// read from the gateway's orch_gateway_requests_by_protocol_total, scraped over HTTP/2 from a
// gateway no other client of the suite uses, so that the HTTP/1.1 count moves only with the
// client under test.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:http2';
import type { ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from '../kubectl/run-kubectl.js';

let suite: Suite;
let scraper: ClientHttp2Session;
const dir = mkdtempSync(join(tmpdir(), 'orch-protocols-'));
const ns = 'protocols-e2e';

const kubectl = (args: string[], env: NodeJS.ProcessEnv = {}, input?: string) =>
  runKubectl(
    suite.kubeconfigs[1]!,
    join(dir, `cache-${env['DISABLE_HTTP2'] ? 1 : 2}`),
    args,
    input,
    {
      ...process.env,
      ...env,
    }
  );

/** Requests the gateway answered so far, by protocol. */
async function byProtocol(): Promise<{ h1: number; h2: number }> {
  const text = await new Promise<string>((resolve, reject) => {
    const stream = scraper.request({ ':path': '/metrics', accept: 'text/plain' });
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => (body += c));
    stream.on('end', () => resolve(body));
    stream.on('error', reject);
    stream.end();
  });
  const count = (protocol: string): number => {
    const series = `orch_gateway_requests_by_protocol_total{protocol="${protocol}"} `;
    const line = text.split('\n').find((l) => l.startsWith(series));
    return line ? Number(line.slice(series.length)) : 0;
  };
  return { h1: count('HTTP/1.1'), h2: count('HTTP/2.0') };
}

/** `kubectl get -w` until `seen` shows in its output, then stopped. */
function watchUntil(
  env: NodeJS.ProcessEnv,
  seen: RegExp,
  whileWatching: () => Promise<void>
): Promise<string> {
  const child = spawn(
    'kubectl',
    [
      `--kubeconfig=${suite.kubeconfigs[1]!}`,
      `--cache-dir=${join(dir, 'cache-watch')}`,
      '-n',
      ns,
      'get',
      'configmaps',
      '--watch',
      '--request-timeout=30s',
    ],
    { env: { ...process.env, ...env } }
  );
  let out = '';
  return new Promise((resolve, reject) => {
    let started = false;
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (!started && out.includes('first')) {
        started = true;
        whileWatching().catch(reject);
      }
      if (seen.test(out)) child.kill();
    });
    child.on('error', reject);
    child.on('exit', () => (seen.test(out) ? resolve(out) : reject(new Error(out))));
  });
}

before(async () => {
  // The clients under test use the second gateway; the suite's own clients (the certificates
  // service's leader election and controllers, the authorizer's policy writes, over HTTP/1.1)
  // use the first, so the second's counts move only with the client under test.
  suite = await sharedSuite();
  const admin = suite.pki.file('admin');
  scraper = connect(suite.gateways[1]!, {
    ca: readFileSync(suite.pki.caFile),
    cert: readFileSync(admin.certFile),
    key: readFileSync(admin.keyFile),
  });
  const created = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(created.status, 201);
  const cm = await kubectl(['-n', ns, 'create', 'configmap', 'first', '--from-literal=a=1']);
  assert.equal(cm.code, 0, cm.stderr);
});

after(async () => {
  scraper.close();
  await suite.stop();
});

describe('kubectl', () => {
  test('negotiates HTTP/2: discovery, a list, a create and a watch, none over HTTP/1.1', async () => {
    const before = await byProtocol();
    const list = await kubectl(['-n', ns, 'get', 'configmaps', '-o', 'name']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /configmap\/first/);
    const out = await watchUntil({}, /over-h2/, async () => {
      const made = await kubectl(['-n', ns, 'create', 'configmap', 'over-h2']);
      assert.equal(made.code, 0, made.stderr);
    });
    assert.match(out, /first/);
    const missing = await kubectl(['-n', ns, 'get', 'configmap', 'missing']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /configmaps "missing" not found/);
    const after = await byProtocol();
    assert.equal(after.h1 - before.h1, 0, 'no request came over HTTP/1.1');
    assert.ok(after.h2 - before.h2 > 4, `HTTP/2 requests: ${after.h2 - before.h2}`);
  });

  test('DISABLE_HTTP2 makes client-go use HTTP/1.1: the same flow', async () => {
    const env = { DISABLE_HTTP2: '1' };
    const before = await byProtocol();
    const list = await kubectl(['-n', ns, 'get', 'configmaps', '-o', 'name'], env);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /configmap\/first/);
    await watchUntil(env, /over-h1/, async () => {
      const made = await kubectl(['-n', ns, 'create', 'configmap', 'over-h1'], env);
      assert.equal(made.code, 0, made.stderr);
    });
    const missing = await kubectl(['-n', ns, 'get', 'configmap', 'missing'], env);
    assert.match(missing.stderr, /configmaps "missing" not found/);
    const after = await byProtocol();
    assert.ok(after.h1 - before.h1 > 4, `HTTP/1.1 requests: ${after.h1 - before.h1}`);
    // Only the scrape before is counted over HTTP/2.
    assert.ok(after.h2 - before.h2 <= 1, `HTTP/2 requests: ${after.h2 - before.h2}`);
  });
});

describe('@kubernetes/client-node', () => {
  test('uses HTTP/1.1: list, create, an error Status and an informer watch', async () => {
    const before = await byProtocol();
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(suite.kubeconfigs[1]!);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const listed = await core.listNamespacedConfigMap({ namespace: ns });
    assert.ok(listed.items.some((c) => c.metadata?.name === 'first'));
    await assert.rejects(
      core.readNamespacedConfigMap({ namespace: ns, name: 'missing' }),
      (err: { code?: number; body?: string }) =>
        err.code === 404 && JSON.parse(err.body ?? '{}').reason === 'NotFound'
    );
    const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${ns}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace: ns })
    );
    const added: string[] = [];
    informer.on('add', (o: k8s.V1ConfigMap) => added.push(o.metadata?.name ?? ''));
    await informer.start();
    try {
      await core.createNamespacedConfigMap({
        namespace: ns,
        body: { metadata: { name: 'from-client-node' }, data: { a: '1' } },
      });
      const end = Date.now() + 15_000;
      while (!added.includes('from-client-node')) {
        if (Date.now() > end) throw new Error(`informer saw only ${added.join(', ')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await informer.stop();
    }
    const after = await byProtocol();
    assert.ok(after.h1 - before.h1 >= 4, `HTTP/1.1 requests: ${after.h1 - before.h1}`);
    assert.ok(after.h2 - before.h2 <= 1, `HTTP/2 requests: ${after.h2 - before.h2}`);
  });
});
