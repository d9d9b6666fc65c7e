// kubectl's output of custom resources, one suite with the controllers on, the
// published cert-manager Certificate CRD applied: `kubectl get -o wide` shows the CRD's
// additionalPrinterColumns of priority > 0 that the default output hides (upstream's
// tableconvertor sends every column with its priority, kubectl's printer drops priority > 0
// without wide), and `kubectl explain` prints the schema's descriptions, which it reads from
// the server's OpenAPI (v3 at /openapi/v3/apis/cert-manager.io/v1, as upstream's
// apiextensions-apiserver publishes a CRD's openAPIV3Schema there).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'crds');
const dir = mkdtempSync(join(tmpdir(), 'orch-cr-output-'));
const certificates = '/apis/cert-manager.io/v1/namespaces/out/certificates';

describe('kubectl output of custom resources', () => {
  let suite: Suite;
  const kubectl = (args: string[], input?: string) =>
    runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

  before(async () => {
    suite = await startSuite({ controllers: true });
    const ns = await kubectl(
      ['create', '-f', '-'],
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: out\n'
    );
    assert.equal(ns.code, 0, ns.stderr);
    const crd = await kubectl(['apply', '-f', join(fixtures, 'certificates.cert-manager.io.yaml')]);
    assert.equal(crd.code, 0, crd.stderr);
    await waitFor(
      'certificates served',
      async () => (await suite.request(0, 'GET', certificates)).status === 200,
      { timeoutMs: 20_000, intervalMs: 50 }
    );
    const cert = await kubectl(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: 'web', namespace: 'out' },
        spec: { secretName: 'web-tls', issuerRef: { name: 'letsencrypt' } },
      })
    );
    assert.equal(cert.code, 0, cert.stderr);
    const status = await kubectl([
      'patch',
      'certificate',
      'web',
      '-n',
      'out',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({
        status: {
          notAfter: '2030-01-01T00:00:00Z',
          conditions: [{ type: 'Ready', status: 'True', message: 'Certificate is up to date' }],
        },
      }),
    ]);
    assert.equal(status.code, 0, status.stderr);
  });
  after(async () => {
    await suite?.stop();
  });

  it('kubectl get hides the columns of priority > 0; -o wide shows them in the CRD order', async () => {
    const plain = await kubectl(['get', 'certificates', '-n', 'out']);
    assert.equal(plain.code, 0, plain.stderr);
    const [head, row] = plain.stdout.split('\n');
    assert.match(head ?? '', /^NAME\s+READY\s+SECRET\s+AGE\s*$/);
    assert.match(row ?? '', /^web\s+True\s+web-tls\s+\d+s\s*$/);

    const wide = await kubectl(['get', 'certificates', '-n', 'out', '-o', 'wide']);
    assert.equal(wide.code, 0, wide.stderr);
    const [wideHead, wideRow] = wide.stdout.split('\n');
    assert.match(wideHead ?? '', /^NAME\s+READY\s+SECRET\s+ISSUER\s+STATUS\s+EXPIRATION\s+AGE\s*$/);
    assert.match(
      wideRow ?? '',
      /^web\s+True\s+web-tls\s+letsencrypt\s+Certificate is up to date\s+2030-01-01T00:00:00Z\s+\d+s\s*$/
    );
  });

  it('the Table itself carries every column with its priority (upstream tableconvertor)', async () => {
    const r = await suite.request(0, 'GET', certificates, undefined, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    assert.equal(r.status, 200, r.text);
    const table = r.body as { columnDefinitions: { name: string; priority: number }[] };
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Ready', 0],
        ['Secret', 0],
        ['Issuer', 1],
        ['Status', 1],
        ['Expiration', 1],
        ['Age', 0],
      ]
    );
  });

  it('kubectl explain certificates.spec prints the descriptions of the CRD schema', async () => {
    const r = await kubectl(['explain', 'certificates.spec']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /GROUP:\s+cert-manager\.io/);
    assert.match(r.stdout, /KIND:\s+Certificate/);
    assert.match(r.stdout, /VERSION:\s+v1/);
    assert.match(r.stdout, /FIELD: spec <Object>/);
    assert.match(r.stdout, /Specification of the desired state of the Certificate resource\./);
    // The fields under spec with their types, required ones marked, each with its description.
    assert.match(r.stdout, /secretName\s+<string> -required-/);
    assert.match(r.stdout, /issuerRef\s+<Object> -required-/);
    assert.match(r.stdout, /Name of the Secret resource that will be automatically created and/);
    assert.match(r.stdout, /dnsNames\s+<\[\]string>/);

    const leaf = await kubectl(['explain', 'certificates.spec.issuerRef.kind']);
    assert.equal(leaf.code, 0, leaf.stderr);
    assert.match(leaf.stdout, /FIELD: kind <string>/);
    assert.match(leaf.stdout, /Kind of the issuer being referred to\.\s+Defaults to .Issuer.\./);
  });

  it('kubectl explain --output=plaintext-openapiv2 reads the same descriptions from OpenAPI v2', async () => {
    const r = await kubectl(['explain', 'certificates.spec', '--output=plaintext-openapiv2']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /KIND:\s+Certificate/);
    assert.match(r.stdout, /Specification of the desired state of the Certificate resource\./);
    assert.match(r.stdout, /secretName\s+<string> -required-/);
  });
});
