// The built-in plugins with informers, through a real suite (etcd, NATS, storage, the admission
// service, a gateway and the controllers), with the default plugin set: ServiceAccount on (the
// service account controller made `default`), Priority, DefaultStorageClass,
// StorageObjectInUseProtection, PersistentVolumeClaimResize, DefaultIngressClass and
// RuntimeClass; and the PVC and PV protection controllers that take StorageObjectInUseProtection's
// finalizers off. Each case is named after the plugin, the row of the spec's admission table it
// checks. The admission service's informers may start from a list that is a moment old, as
// client-go's do, so the cases start once a dry run shows each class in use (the default
// StorageClass written after the other two, so that seeing it means seeing them).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite, SuiteResponse } from '@orch/testing';

type Json = Record<string, any>;
let suite: Suite;
const ns = 'builtin-plugins';
const pods = `/api/v1/namespaces/${ns}/pods`;
const claims = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
const priorityClasses = '/apis/scheduling.orch.io/v1/priorityclasses';
const messageOf = (r: SuiteResponse): string => (r.body as Json)['message'] ?? '';
const specOf = (r: SuiteResponse): Json => (r.body as Json)['spec'];
const pod = (name: string, spec: Json = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], ...spec },
});
const claim = (name: string, spec: Json = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});

const ingresses = `/apis/networking.orch.io/v1/namespaces/${ns}/ingresses`;
const ingress = (name: string) => ({
  apiVersion: 'networking.orch.io/v1',
  kind: 'Ingress',
  metadata: { name },
  spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
});

/** Waits until a dry-run create of `body` is admitted with a spec that shows `what` in use. */
async function inUse(
  what: string,
  path: string,
  body: Json,
  used: (spec: Json) => boolean
): Promise<void> {
  let last: SuiteResponse | undefined;
  await waitFor(
    `the admission service uses ${what}`,
    async () => {
      last = await suite.request(0, 'POST', `${path}?dryRun=All`, body);
      return last.status === 201 && used(specOf(last));
    },
    { timeoutMs: 30_000, intervalMs: 100 }
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last: ${last?.status} ${last?.text}`);
  });
}

async function create(path: string, body: Json): Promise<SuiteResponse> {
  const r = await suite.request(0, 'POST', path, body);
  assert.equal(r.status, 201, `${path}: ${r.text}`);
  return r;
}

before(async () => {
  suite = await startSuite({ controllers: true });
  await create('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  await create(priorityClasses, {
    apiVersion: 'scheduling.orch.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'team-default' },
    value: 1000,
    globalDefault: true,
  });
  await create('/apis/storage.orch.io/v1/storageclasses', {
    apiVersion: 'storage.orch.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'fixed' },
    provisioner: 'csi.example.com',
    allowVolumeExpansion: false,
  });
  await create('/apis/storage.orch.io/v1/storageclasses', {
    apiVersion: 'storage.orch.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'expandable' },
    provisioner: 'csi.example.com',
    allowVolumeExpansion: true,
  });
  await create('/apis/storage.orch.io/v1/storageclasses', {
    apiVersion: 'storage.orch.io/v1',
    kind: 'StorageClass',
    metadata: {
      name: 'standard',
      annotations: { 'storageclass.orch.io/is-default-class': 'true' },
    },
    provisioner: 'csi.example.com',
  });
  await create('/apis/networking.orch.io/v1/ingressclasses', {
    apiVersion: 'networking.orch.io/v1',
    kind: 'IngressClass',
    metadata: { name: 'nginx', annotations: { 'ingressclass.orch.io/is-default-class': 'true' } },
    spec: { controller: 'example.com/ingress-nginx' },
  });
  await create('/apis/node.orch.io/v1/runtimeclasses', {
    apiVersion: 'node.orch.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: 'kata' },
    handler: 'kata',
    overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    scheduling: {
      nodeSelector: { 'example.com/runtime': 'kata' },
      tolerations: [{ key: 'example.com/runtime', operator: 'Exists', effect: 'NoSchedule' }],
    },
  });
  // The service account controller gives the namespace its `default` account.
  await waitFor(
    `serviceaccount ${ns}/default`,
    async () =>
      (await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status ===
      200,
    { timeoutMs: 30_000 }
  );
  await inUse('the global default PriorityClass', pods, pod('probe'), (spec) => {
    return spec['priorityClassName'] === 'team-default';
  });
  await inUse('the RuntimeClass', pods, pod('probe', { runtimeClassName: 'kata' }), (spec) => {
    return spec['overhead'] !== undefined;
  });
  await inUse('the default StorageClass', claims, claim('probe'), (spec) => {
    return spec['storageClassName'] === 'standard';
  });
  await inUse('the default IngressClass', ingresses, ingress('probe'), (spec) => {
    return spec['ingressClassName'] === 'nginx';
  });
});

after(async () => {
  await suite?.stop();
});

describe('the default admission plugins of issue 18, live', () => {
  it('ServiceAccount (on by default): a pod runs as `default` with the API credentials mounted; a missing account is refused', async () => {
    const r = await create(pods, pod('sa-default'));
    const spec = specOf(r);
    assert.equal(spec['serviceAccountName'], 'default');
    assert.match(spec['volumes'][0].name, /^kube-api-access-[a-z0-9]{5}$/);
    assert.equal(
      spec['containers'][0].volumeMounts[0].mountPath,
      '/var/run/secrets/kubernetes.io/serviceaccount'
    );
    const missing = await suite.request(
      0,
      'POST',
      pods,
      pod('sa-missing', { serviceAccountName: 'builder' })
    );
    assert.equal(missing.status, 403);
    assert.equal(
      messageOf(missing),
      `pods "sa-missing" is forbidden: error looking up service account ${ns}/builder: serviceaccount "builder" not found`
    );
  });

  it('Priority: the global default, a named class (a system one in any namespace), a missing class refused', async () => {
    const byDefault = specOf(await create(pods, pod('prio-default')));
    assert.equal(byDefault['priorityClassName'], 'team-default');
    assert.equal(byDefault['priority'], 1000);
    assert.equal(byDefault['preemptionPolicy'], 'PreemptLowerPriority');
    const critical = specOf(
      await create(pods, pod('prio-critical', { priorityClassName: 'system-cluster-critical' }))
    );
    assert.equal(critical['priority'], 2000000000);
    const missing = await suite.request(
      0,
      'POST',
      pods,
      pod('prio-missing', { priorityClassName: 'gold' })
    );
    assert.equal(missing.status, 403);
    assert.equal(
      messageOf(missing),
      'pods "prio-missing" is forbidden: no PriorityClass with name gold was found'
    );
    const given = await suite.request(0, 'POST', pods, pod('prio-given', { priority: 5 }));
    assert.equal(given.status, 403);
    assert.match(
      messageOf(given),
      /the integer value of priority \(5\) must not be provided in pod spec; priority admission controller computed 1000/
    );
  });

  it('Priority: a second global default is refused; the system classes cannot be deleted', async () => {
    const second = await suite.request(0, 'POST', priorityClasses, {
      apiVersion: 'scheduling.orch.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'other-default' },
      value: 10,
      globalDefault: true,
    });
    assert.equal(second.status, 403);
    assert.equal(
      messageOf(second),
      'priorityclasses.scheduling.orch.io "other-default" is forbidden: PriorityClass team-default is already marked as default. Only one default can exist'
    );
    const del = await suite.request(0, 'DELETE', `${priorityClasses}/system-node-critical`);
    assert.equal(del.status, 403);
    assert.equal(
      messageOf(del),
      'priorityclasses.scheduling.orch.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted'
    );
    assert.equal(
      (await suite.request(0, 'GET', `${priorityClasses}/system-node-critical`)).status,
      200
    );
  });

  it('RuntimeClass: overhead, node selector and tolerations from the class; a missing class refused', async () => {
    const spec = specOf(await create(pods, pod('kata', { runtimeClassName: 'kata' })));
    assert.deepEqual(spec['overhead'], { cpu: '250m', memory: '120Mi' });
    assert.deepEqual(spec['nodeSelector'], { 'example.com/runtime': 'kata' });
    assert.ok(
      spec['tolerations'].some(
        (t: Json) => t['key'] === 'example.com/runtime' && t['effect'] === 'NoSchedule'
      )
    );
    const missing = await suite.request(
      0,
      'POST',
      pods,
      pod('gvisor', { runtimeClassName: 'gvisor' })
    );
    assert.equal(missing.status, 403);
    assert.equal(
      messageOf(missing),
      'pods "gvisor" is forbidden: pod rejected: RuntimeClass "gvisor" not found'
    );
  });

  it('DefaultStorageClass and StorageObjectInUseProtection: a claim without a class gets the default and the protection finalizer; "" keeps none', async () => {
    const r = await create(claims, claim('data'));
    assert.equal(specOf(r)['storageClassName'], 'standard');
    assert.deepEqual((r.body as Json)['metadata'].finalizers, ['orch.io/pvc-protection']);
    const none = await create(claims, claim('no-class', { storageClassName: '' }));
    assert.equal(specOf(none)['storageClassName'], '');
    const pv = await create('/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-protected' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: '/data' },
      },
    });
    assert.deepEqual((pv.body as Json)['metadata'].finalizers, ['orch.io/pv-protection']);
  });

  it('PersistentVolumeClaimResize: growing a bound claim is refused when its class does not allow expansion, allowed when it does', async () => {
    // (A pending claim's size is refused earlier, by the claim's validation: 422, as upstream.)
    const bind = async (name: string, storageClassName: string): Promise<Json> => {
      const created = await create(
        claims,
        claim(name, { storageClassName, volumeName: `pv-${name}` })
      );
      const bound = structuredClone(created.body as Json);
      bound['status'] = {
        phase: 'Bound',
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
      };
      const status = await suite.request(0, 'PUT', `${claims}/${name}/status`, bound);
      assert.equal(status.status, 200, status.text);
      return status.body as Json;
    };
    const grow = (body: Json): Json => {
      const next = structuredClone(body);
      next['spec'].resources.requests.storage = '2Gi';
      return next;
    };
    const refused = await suite.request(
      0,
      'PUT',
      `${claims}/fixed-size`,
      grow(await bind('fixed-size', 'fixed'))
    );
    assert.equal(refused.status, 403);
    assert.equal(
      messageOf(refused),
      'persistentvolumeclaims "fixed-size" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize'
    );
    const grown = await suite.request(
      0,
      'PUT',
      `${claims}/grows`,
      grow(await bind('grows', 'expandable'))
    );
    assert.equal(grown.status, 200, grown.text);
    assert.equal(specOf(grown)['resources'].requests.storage, '2Gi');
  });

  it('StorageObjectInUseProtection with the PVC and PV protection controllers: a deleted claim stays while a scheduled pod uses it, a deleted volume while it is Bound', async () => {
    const gone = (path: string) =>
      waitFor(`${path} removed`, async () => (await suite.request(0, 'GET', path)).status === 404, {
        timeoutMs: 30_000,
      });
    await create(claims, claim('in-use'));
    await create(claims, claim('unused'));
    await create(
      pods,
      pod('uses-claim', {
        nodeName: 'node-1',
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'in-use' } }],
      })
    );
    const deleted = await suite.request(0, 'DELETE', `${claims}/in-use`);
    assert.equal(deleted.status, 200, deleted.text);
    assert.ok((deleted.body as Json)['metadata'].deletionTimestamp);
    assert.equal((await suite.request(0, 'DELETE', `${claims}/unused`)).status, 200);
    // The controller works its queue in order: by the time the unused claim is gone, it has
    // looked at the used one and kept it.
    await gone(`${claims}/unused`);
    const kept = await suite.request(0, 'GET', `${claims}/in-use`);
    assert.equal(kept.status, 200);
    assert.deepEqual((kept.body as Json)['metadata'].finalizers, ['orch.io/pvc-protection']);
    assert.equal((await suite.request(0, 'DELETE', `${pods}/uses-claim`)).status, 200);
    await gone(`${claims}/in-use`);

    const volume = (name: string) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: '/data' },
      },
    });
    const setPhase = async (name: string, phase: string) => {
      const pv = (await suite.request(0, 'GET', `/api/v1/persistentvolumes/${name}`)).body as Json;
      pv['status'] = { phase };
      const r = await suite.request(0, 'PUT', `/api/v1/persistentvolumes/${name}/status`, pv);
      assert.equal(r.status, 200, r.text);
    };
    await create('/api/v1/persistentvolumes', volume('pv-bound'));
    await create('/api/v1/persistentvolumes', volume('pv-free'));
    await setPhase('pv-bound', 'Bound');
    assert.equal(
      (await suite.request(0, 'DELETE', '/api/v1/persistentvolumes/pv-bound')).status,
      200
    );
    assert.equal(
      (await suite.request(0, 'DELETE', '/api/v1/persistentvolumes/pv-free')).status,
      200
    );
    await gone('/api/v1/persistentvolumes/pv-free');
    assert.equal((await suite.request(0, 'GET', '/api/v1/persistentvolumes/pv-bound')).status, 200);
    await setPhase('pv-bound', 'Released');
    await gone('/api/v1/persistentvolumes/pv-bound');
  });

  it('DefaultIngressClass: an Ingress without a class gets the default one', async () => {
    const r = await create(ingresses, ingress('web'));
    assert.equal(specOf(r)['ingressClassName'], 'nginx');
  });
});
