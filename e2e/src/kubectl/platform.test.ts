// The platform kinds end to end with the real kubectl: `kubectl create secret
// generic --from-literal`, made immutable, then a data update refused with upstream's message;
// stringData through kubectl apply never stored; `kubectl get ingress, storageclass,
// priorityclass` with upstream's columns (short names too); the system priority classes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-platform-'));
const kubectl = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);
/** The header and rows of kubectl's table output, cells split on runs of spaces. */
const rowsOf = (out: string): string[][] =>
  out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));

before(async () => {
  suite = await sharedSuite();
});

after(async () => {
  await suite.stop();
});

test('kubectl create secret generic --from-literal, made immutable: a data update is refused with upstream message, labels still change', async () => {
  const created = await kubectl([
    'create',
    'secret',
    'generic',
    'db',
    '--from-literal=password=s3cret',
    '--from-literal=user=app',
  ]);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /secret\/db created/);
  const get = await kubectl(['get', 'secret', 'db', '-o', 'jsonpath={.data.password}']);
  assert.equal(Buffer.from(get.stdout, 'base64').toString(), 's3cret');
  const frozen = await kubectl(['patch', 'secret', 'db', '-p', '{"immutable":true}']);
  assert.equal(frozen.code, 0, frozen.stderr);
  const refused = await kubectl([
    'patch',
    'secret',
    'db',
    '-p',
    '{"stringData":{"password":"other"}}',
  ]);
  assert.notEqual(refused.code, 0);
  assert.match(
    refused.stderr,
    /The Secret "db" is invalid: data: Forbidden: field is immutable when `immutable` is set/
  );
  const unset = await kubectl(['patch', 'secret', 'db', '-p', '{"immutable":false}']);
  assert.match(unset.stderr, /immutable: Forbidden: field is immutable when `immutable` is set/);
  const labeled = await kubectl(['label', 'secret', 'db', 'tier=backend']);
  assert.equal(labeled.code, 0, labeled.stderr);
  const still = await kubectl(['get', 'secret', 'db', '-o', 'jsonpath={.data.password}']);
  assert.equal(Buffer.from(still.stdout, 'base64').toString(), 's3cret');
});

test('kubectl apply of a Secret with stringData: merged into data, never stored', async () => {
  const r = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls-ish\ntype: kubernetes.io/basic-auth\nstringData:\n  username: admin\n  password: pw\n'
  );
  assert.equal(r.code, 0, r.stderr);
  const out = await kubectl(['get', 'secret', 'tls-ish', '-o', 'json']);
  const s = JSON.parse(out.stdout) as { data: Record<string, string>; stringData?: unknown };
  assert.equal(s.stringData, undefined);
  assert.equal(Buffer.from(s.data['username']!, 'base64').toString(), 'admin');
  const bad = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: no-key\ntype: kubernetes.io/tls\nstringData:\n  tls.crt: x\n'
  );
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /data\[tls\.key\]: Required value/);
});

test('kubectl get ingress, storageclass, priorityclass: upstream columns, short names', async () => {
  const manifests = `apiVersion: networking.orch.io/v1
kind: Ingress
metadata:
  name: web
spec:
  ingressClassName: nginx
  tls:
  - hosts: [web.example.com]
    secretName: web-tls
  rules:
  - host: web.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
---
apiVersion: storage.orch.io/v1
kind: StorageClass
metadata:
  name: fast
provisioner: csi.example.com
allowVolumeExpansion: true
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: scheduling.orch.io/v1
kind: PriorityClass
metadata:
  name: high
value: 1000
preemptionPolicy: Never
`;
  const applied = await kubectl(['apply', '-f', '-'], manifests);
  assert.equal(applied.code, 0, applied.stderr);

  const ing = await kubectl(['get', 'ing', 'web']);
  assert.equal(ing.code, 0, ing.stderr);
  const [ih, ir] = rowsOf(ing.stdout);
  assert.deepEqual(ih, ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE']);
  assert.deepEqual(ir!.slice(0, 3), ['web', 'nginx', 'web.example.com']);
  assert.equal(ir![3], '80, 443');

  const sc = await kubectl(['get', 'sc', 'fast']);
  const [sh, sr] = rowsOf(sc.stdout);
  assert.deepEqual(sh, [
    'NAME',
    'PROVISIONER',
    'RECLAIMPOLICY',
    'VOLUMEBINDINGMODE',
    'ALLOWVOLUMEEXPANSION',
    'AGE',
  ]);
  assert.deepEqual(sr!.slice(0, 5), [
    'fast',
    'csi.example.com',
    'Delete',
    'WaitForFirstConsumer',
    'true',
  ]);

  await waitFor(
    'the system priority classes',
    async () => (await kubectl(['get', 'pc', 'system-node-critical'])).code === 0,
    { timeoutMs: 60_000 }
  );
  const pc = await kubectl(['get', 'priorityclass']);
  const [ph, ...prows] = rowsOf(pc.stdout);
  assert.deepEqual(ph, ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'PREEMPTIONPOLICY', 'AGE']);
  const byName = new Map(prows.map((r) => [r[0], r]));
  assert.deepEqual(byName.get('high')!.slice(1, 4), ['1000', 'false', 'Never']);
  assert.deepEqual(byName.get('system-cluster-critical')!.slice(1, 4), [
    '2000000000',
    'false',
    'PreemptLowerPriority',
  ]);
  assert.deepEqual(byName.get('system-node-critical')!.slice(1, 4), [
    '2000001000',
    'false',
    'PreemptLowerPriority',
  ]);
});

test('kubectl: an invalid ingress is refused naming the field; a status subresource the kind lacks is NotFound', async () => {
  const bad = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: networking.orch.io/v1\nkind: Ingress\nmetadata:\n  name: bad\nspec:\n  rules:\n  - host: 10.0.0.1\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: web\n            port:\n              number: 80\n'
  );
  assert.notEqual(bad.code, 0);
  assert.match(
    bad.stderr,
    /The Ingress "bad" is invalid: spec\.rules\[0\]\.host: Invalid value: "10\.0\.0\.1": must be a DNS name, not an IP address/
  );
  const raw = await kubectl([
    'get',
    '--raw',
    '/apis/storage.orch.io/v1/storageclasses/fast/status',
  ]);
  assert.notEqual(raw.code, 0);
  assert.match(raw.stderr, /the server could not find the requested resource/);
});
