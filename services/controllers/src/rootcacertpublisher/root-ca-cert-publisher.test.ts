// The root CA publisher on the shared suite with controllers: a new namespace gets the ConfigMap
// `kube-root-ca.crt` (the name pods' projected service-account volumes mount) with `ca.crt` the
// cluster CA and upstream's description annotation; deleted, it is created again; its data
// changed, it is rewritten (other annotations kept).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'root-ca-publisher';
const path = `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`;
interface ConfigMap {
  metadata: { uid: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
}
const description =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

before(async () => {
  suite = await sharedSuite({ controllers: true });
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(r.status, 201, r.text);
});

after(async () => {
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await suite.stop();
});

/** Waits until the ConfigMap exists and `ok` holds for it. */
async function published(ok: (cm: ConfigMap) => boolean): Promise<ConfigMap> {
  let last: ConfigMap | undefined;
  try {
    await waitFor(
      `${path} published`,
      async () => {
        const r = await suite.request(0, 'GET', path);
        last = r.status === 200 ? (r.body as ConfigMap) : undefined;
        return last !== undefined && ok(last);
      },
      { timeoutMs: 30_000, intervalMs: 100 }
    );
  } catch (err) {
    throw new Error(
      `${String(err)}; last ${JSON.stringify(last)}\n${suite.logTail('controllers', 30)}`
    );
  }
  return last!;
}

const isCurrent = (cm: ConfigMap): boolean =>
  JSON.stringify(cm.data) === JSON.stringify({ 'ca.crt': suite.pki.caCertPem }) &&
  cm.metadata.annotations?.['kubernetes.io/description'] === description;

test('root CA publisher: kube-root-ca.crt with the cluster CA in a new namespace, recreated when deleted, rewritten when changed', async () => {
  const first = await published(isCurrent);

  const del = await suite.request(0, 'DELETE', path);
  assert.equal(del.status, 200, del.text);
  const again = await published(isCurrent);
  assert.notEqual(again.metadata.uid, first.metadata.uid, 'a new object');

  const changed = {
    ...again,
    metadata: { ...again.metadata, annotations: { ...again.metadata.annotations, mine: 'kept' } },
    data: { 'ca.crt': 'not the CA', extra: 'x' },
  };
  const put = await suite.request(0, 'PUT', path, changed);
  assert.equal(put.status, 200, put.text);
  const rewritten = await published(isCurrent);
  assert.equal(rewritten.metadata.annotations?.['mine'], 'kept');
});
