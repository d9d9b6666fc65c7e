// ServiceAccount: the default account set, an account that does not exist refused with
// upstream's message (after the retries for `default`), the API access volume mounted as
// upstream's, automountServiceAccountToken on the pod or the account, mirror pods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import { pluginDeps, pod, recordingContext, request, specOf } from '../plugin-test-kit.js';
import { newServiceAccount, serviceAccountMountPath } from './service-account.js';

const sa = (name: string, extra: Record<string, unknown> = {}): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace: 'ns' },
  ...extra,
});

const plugin = (accounts: ApiObject[]) =>
  newServiceAccount(pluginDeps({ objects: { serviceaccounts: accounts } }), {
    defaultAttempts: 2,
    retryIntervalMs: 1,
  });

async function admit(accounts: ApiObject[], object: ApiObject) {
  const req = request({ resource: 'pods', object });
  await plugin(accounts).admit!(req, recordingContext());
  return { spec: specOf<Record<string, any>>(req.object) };
}

test('ServiceAccount: an empty serviceAccountName becomes default', async () => {
  const p = await admit([sa('default')], pod('x', { containers: [{ name: 'c' }] }));
  assert.equal(p.spec['serviceAccountName'], 'default');
});

test('ServiceAccount: the API access volume is mounted as upstream’s (kube-api-access-<5>, projected token, CA, namespace)', async () => {
  const p = await admit(
    [sa('default')],
    pod('x', { initContainers: [{ name: 'i' }], containers: [{ name: 'c' }, { name: 'd' }] })
  );
  const [volume] = p.spec['volumes'];
  assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(volume.projected, {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [
            { path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
          ],
        },
      },
    ],
    defaultMode: 420,
  });
  for (const c of [...p.spec['initContainers'], ...p.spec['containers']]) {
    assert.deepEqual(c.volumeMounts, [
      { name: volume.name, readOnly: true, mountPath: serviceAccountMountPath },
    ]);
  }
});

test('ServiceAccount: a container with something mounted at the path keeps it', async () => {
  const p = await admit(
    [sa('default')],
    pod('x', {
      containers: [
        { name: 'c', volumeMounts: [{ name: 'own', mountPath: serviceAccountMountPath }] },
        { name: 'd' },
      ],
      volumes: [{ name: 'own', emptyDir: {} }],
    })
  );
  assert.equal(p.spec['volumes'].length, 2);
  assert.deepEqual(p.spec['containers'][0].volumeMounts, [
    { name: 'own', mountPath: serviceAccountMountPath },
  ]);
  assert.equal(p.spec['containers'][1].volumeMounts.length, 1);
});

const automountRows: {
  name: string;
  account: Record<string, unknown>;
  pod: Record<string, unknown>;
  mounted: boolean;
}[] = [
  {
    name: 'the account opts out',
    account: { automountServiceAccountToken: false },
    pod: {},
    mounted: false,
  },
  {
    name: 'the pod opts out',
    account: {},
    pod: { automountServiceAccountToken: false },
    mounted: false,
  },
  {
    name: 'the pod opts in over the account',
    account: { automountServiceAccountToken: false },
    pod: { automountServiceAccountToken: true },
    mounted: true,
  },
];
for (const row of automountRows) {
  test(`ServiceAccount: automountServiceAccountToken: ${row.name}`, async () => {
    const p = await admit(
      [sa('default', row.account)],
      pod('x', { containers: [{ name: 'c' }], ...row.pod })
    );
    assert.equal(Array.isArray(p.spec['volumes']), row.mounted);
  });
}

test('ServiceAccount: a missing account is refused with upstream’s message', async () => {
  const req = request({
    resource: 'pods',
    object: pod('x', { serviceAccountName: 'builder', containers: [{ name: 'c' }] }),
  });
  await assert.rejects(plugin([sa('default')]).admit!(req, recordingContext()), {
    code: 403,
    message:
      'pods "x" is forbidden: error looking up service account ns/builder: serviceaccount "builder" not found',
  });
});

test('ServiceAccount: a missing default account is refused after the retries', async () => {
  const req = request({ resource: 'pods', object: pod('x', { containers: [{ name: 'c' }] }) });
  await assert.rejects(plugin([]).admit!(req, recordingContext()), {
    message:
      'pods "x" is forbidden: error looking up service account ns/default: serviceaccount "default" not found',
  });
});

test('ServiceAccount: validate refuses a pod naming no account', async () => {
  const req = request({ resource: 'pods', object: pod('x', { containers: [{ name: 'c' }] }) });
  await assert.rejects(plugin([sa('default')]).validate!(req, recordingContext()), {
    message: 'pods "x" is forbidden: no service account specified for pod ns/x',
  });
});

test('ServiceAccount: a mirror pod is left alone by admit and may not name an account', async () => {
  const mirror = pod(
    'm',
    { containers: [{ name: 'c' }] },
    { annotations: { 'orch.io/config.mirror': 'x' } }
  );
  const p = await admit([], mirror);
  assert.equal(p.spec['serviceAccountName'], undefined);
  const named = pod(
    'm',
    { serviceAccountName: 'default', containers: [{ name: 'c' }] },
    { annotations: { 'orch.io/config.mirror': 'x' } }
  );
  await assert.rejects(
    plugin([sa('default')]).validate!(
      request({ resource: 'pods', object: named }),
      recordingContext()
    ),
    {
      message: 'pods "m" is forbidden: a mirror pod may not reference service accounts',
    }
  );
});

test('ServiceAccount: other resources and subresources pass untouched', async () => {
  const req = request({ resource: 'pods', subResource: 'status', object: pod('x', {}) });
  await plugin([]).admit!(req, recordingContext());
  assert.deepEqual((req.object as any).spec, {});
});
