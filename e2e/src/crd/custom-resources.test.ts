// Custom resources end to end with the real clients, one suite with the
// controllers on: kubectl applies cert-manager's published Certificate CRD, creates, lists and
// explains Certificates, writes their status through --subresource=status, sees a write the
// schema refuses with upstream's message; @kubernetes/client-node watches Certificates
// (Watch on /apis/cert-manager.io/v1/namespaces/x/certificates); `kubectl delete crd` removes
// the objects and then the resource (404).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from '../kubectl/run-kubectl.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'crds');
const dir = mkdtempSync(join(tmpdir(), 'orch-crd-serve-'));
const certificates = '/apis/cert-manager.io/v1/namespaces/x/certificates';

const certificate = (name: string, spec: Record<string, unknown>) => `
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: ${name}
  namespace: x
spec: ${JSON.stringify(spec)}
`;

describe('custom resources with kubectl and client-node', () => {
  let suite: Suite;
  const kubectl = (args: string[], input?: string) =>
    runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);
  const until = (what: string, ok: () => Promise<boolean>) =>
    waitFor(what, ok, { timeoutMs: 20_000, intervalMs: 50 });

  before(async () => {
    suite = await startSuite({ controllers: true });
    assert.equal((await kubectl(['create', 'namespace', 'x'])).code, 0);
  });
  after(async () => {
    await suite?.stop();
  });

  it('kubectl applies the published Certificate CRD; once Established, Certificates are served', async () => {
    const r = await kubectl(['apply', '-f', join(fixtures, 'certificates.cert-manager.io.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    await until('certificates served', async () => {
      return (await suite.request(0, 'GET', certificates)).status === 200;
    });
    const created = await kubectl(
      ['apply', '-f', '-'],
      certificate('web', {
        secretName: 'web-tls',
        issuerRef: { name: 'ca' },
        dnsNames: ['a.example'],
      })
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /certificate\.cert-manager\.io\/web created/);
    const got = await kubectl(['get', 'certificates', '-n', 'x']);
    assert.equal(got.code, 0, got.stderr);
    // The CRD's additionalPrinterColumns of priority 0, then AGE (upstream's tableconvertor).
    assert.match(got.stdout.split('\n')[0] ?? '', /^NAME\s+READY\s+SECRET\s+AGE\s*$/);
    assert.match(got.stdout, /^web\s+web-tls\s+\d+s\s*$/m);
    const short = await kubectl([
      'get',
      'cert',
      'web',
      '-n',
      'x',
      '-o',
      'jsonpath={.spec.secretName}',
    ]);
    assert.equal(short.stdout, 'web-tls', short.stderr);
  });

  it('kubectl explain reads the CRD schema', async () => {
    const r = await kubectl(['explain', 'certificates.spec.secretName']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /KIND:\s+Certificate/);
    assert.match(r.stdout, /secretName/);
  });

  it('kubectl patch --subresource=status writes status; a main write keeps it', async () => {
    const status = { status: { notAfter: '2030-01-01T00:00:00Z' } };
    const r = await kubectl([
      'patch',
      'certificate',
      'web',
      '-n',
      'x',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify(status),
    ]);
    assert.equal(r.code, 0, r.stderr);
    const relabel = await kubectl(['label', 'certificate', 'web', '-n', 'x', 'tier=front']);
    assert.equal(relabel.code, 0, relabel.stderr);
    const got = await kubectl([
      'get',
      'certificate',
      'web',
      '-n',
      'x',
      '-o',
      'jsonpath={.status.notAfter}',
    ]);
    assert.equal(got.stdout, '2030-01-01T00:00:00Z', got.stderr);
  });

  it('a Certificate the schema refuses: upstream message, nothing stored', async () => {
    const r = await kubectl(
      ['create', '-f', '-'],
      certificate('broken', { issuerRef: { name: 'ca' } })
    );
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.secretName: Required value/);
    assert.equal((await suite.request(0, 'GET', `${certificates}/broken`)).status, 404);
  });

  it('a write refused by an x-kubernetes-validations rule of a small CRD', async () => {
    const crd = `
apiVersion: apiextensions.orch.io/v1
kind: CustomResourceDefinition
metadata:
  name: limits.e2e.example.com
spec:
  group: e2e.example.com
  names: { plural: limits, singular: limit, kind: Limit }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.min <= self.max
              message: min must not exceed max
            properties:
              min: { type: integer }
              max: { type: integer }
`;
    const r = await kubectl(['apply', '-f', '-'], crd);
    assert.equal(r.code, 0, r.stderr);
    const path = '/apis/e2e.example.com/v1/namespaces/x/limits';
    await until('limits served', async () => (await suite.request(0, 'GET', path)).status === 200);
    const obj = (min: number, max: number) =>
      `apiVersion: e2e.example.com/v1\nkind: Limit\nmetadata: { name: l${min}, namespace: x }\nspec: { min: ${min}, max: ${max} }\n`;
    const ok = await kubectl(['create', '-f', '-'], obj(1, 2));
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await kubectl(['create', '-f', '-'], obj(5, 2));
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec: Invalid value: "object": min must not exceed max/);
  });

  it('client-node watches Certificates', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(suite.kubeconfigs[0]!);
    const seen: string[] = [];
    const watch = new k8s.Watch(kc);
    const req = await watch.watch(
      certificates,
      {},
      (type: string, obj: any) => seen.push(`${type} ${obj.metadata?.name}`),
      () => {}
    );
    try {
      const r = await kubectl(
        ['create', '-f', '-'],
        certificate('api', { secretName: 'api-tls', issuerRef: { name: 'ca' } })
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await kubectl(['delete', 'certificate', 'api', '-n', 'x'])).code, 0);
      await until('watch saw ADDED and DELETED of api', async () => seen.includes('DELETED api'));
      assert.ok(seen.includes('ADDED api'), seen.join(', '));
    } finally {
      req.abort();
    }
  });

  it('kubectl delete crd removes the objects, then the resource (404)', async () => {
    const r = await kubectl(['delete', 'crd', 'certificates.cert-manager.io']);
    assert.equal(r.code, 0, r.stderr);
    await until('certificates gone', async () => {
      return (await suite.request(0, 'GET', certificates)).status === 404;
    });
    const crd = await suite.request(
      0,
      'GET',
      '/apis/apiextensions.orch.io/v1/customresourcedefinitions/certificates.cert-manager.io'
    );
    assert.equal(crd.status, 404);
    const raw = await suite.request(0, 'GET', `/apis/cert-manager.io/v1`);
    assert.equal(raw.status, 404);
  });
});
