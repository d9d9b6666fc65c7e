// The admission service over real gRPC (mutual TLS) against the shared suite's storage and NATS:
// the RPC runs the named plugins (AlwaysDeny's Status, AlwaysPullImages' mutation, an unknown
// name refused), the listers read the cluster through informers, the metrics carry upstream's
// names. The service here is built in-process from its options like main.ts builds it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pluginsPlacedIn } from '@orch/apimachinery/admission';
import { AdmissionClient } from '@orch/apimachinery/grpc';
import type { AdmissionCallRequest, AdmitCall } from '@orch/apimachinery/grpc';
import type { ApiObject } from '@orch/apimachinery/meta';
import { StatusError } from '@orch/apimachinery/errors';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import type { Started } from '@orch/component-base/run';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { newAdmissionConfig } from './config.js';
import { admissionOptions } from './options.js';
import { specOf } from './plugin-test-kit.js';
import { AdmissionServer } from './server.js';

let suite: Suite;
let server: AdmissionServer;
let started: Started;
let client: AdmissionClient;

const pod = (policy: string): ApiObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: {
    initContainers: [{ name: 'i', image: 'busybox', imagePullPolicy: policy }],
    containers: [{ name: 'c', image: 'nginx', imagePullPolicy: policy }],
    ephemeralContainers: [{ name: 'e', image: 'debug', imagePullPolicy: policy }],
  },
});

const request = (over: Partial<AdmissionCallRequest> = {}): AdmissionCallRequest => ({
  operation: 'CREATE',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  subResource: '',
  namespace: 'default',
  name: 'p',
  userInfo: { name: 'alice', uid: '1', groups: ['dev'], extra: { scope: ['a'] } },
  object: pod('IfNotPresent'),
  oldObject: undefined,
  options: { apiVersion: 'meta.orch.io/v1', kind: 'CreateOptions' },
  dryRun: false,
  ...over,
});
const call = (
  phase: AdmitCall['phase'],
  plugins: string[],
  over?: Partial<AdmissionCallRequest>
): AdmitCall => ({ phase, plugins, request: request(over) });
const policiesOf = (o: ApiObject | undefined): string[] => {
  const spec = specOf<Record<string, { imagePullPolicy: string }[]>>(o);
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((l) =>
    (spec[l] ?? []).map((c) => c.imagePullPolicy)
  );
};

before(async () => {
  suite = await sharedSuite();
  const a = suite.pki.file('admission');
  const options = admissionOptions([
    '--secure-port=0',
    '--bind-address=127.0.0.1',
    `--tls-cert-file=${a.certFile}`,
    `--tls-private-key-file=${a.keyFile}`,
    `--client-ca-file=${suite.pki.caFile}`,
    `--storage-servers=127.0.0.1:${suite.storagePort}`,
    `--nats-url=${suite.nats.url}`,
  ]);
  server = new AdmissionServer(await newAdmissionConfig(options, createLogger('test', 'error')));
  started = await startInBackground(server);
  const g = suite.pki.file('gateway');
  client = new AdmissionClient({
    address: `127.0.0.1:${await server.serving}`,
    credentials: clientCredentials({ caFile: suite.pki.caFile, ...g }),
  });
});

after(async () => {
  client?.close();
  await started?.stop();
  await suite?.stop();
});

describe('Admit RPC', () => {
  it('AlwaysDeny denies in both phases with its Forbidden Status', async () => {
    for (const phase of ['mutating', 'validating'] as const) {
      const r = await client.admit(call(phase, ['AlwaysDeny']));
      assert.equal(r.allowed, false);
      assert.equal(r.status?.code, 403);
      assert.equal(r.status?.reason, 'Forbidden');
      assert.equal(
        r.status?.message,
        'pods "p" is forbidden: admission control is denying all modifications'
      );
      // The core group is left out, as upstream's omitempty.
      assert.deepEqual(r.status?.details, { name: 'p', kind: 'pods' });
      assert.equal(r.object, undefined);
    }
  });

  it('AlwaysAdmit allows, and an unchanged object is not sent back', async () => {
    const r = await client.admit(call('mutating', ['AlwaysAdmit']));
    assert.equal(r.allowed, true);
    assert.equal(r.status, undefined);
    assert.equal(r.object, undefined);
  });

  it('the plugins run in the order named and the first denial ends the run', async () => {
    const first = await client.admit(call('mutating', ['AlwaysDeny', 'AlwaysPullImages']));
    assert.equal(first.allowed, false);
    assert.equal(first.object, undefined, 'AlwaysPullImages did not run after the denial');
    const second = await client.admit(call('mutating', ['AlwaysPullImages', 'AlwaysDeny']));
    assert.equal(second.allowed, false);
  });

  it('AlwaysPullImages mutates every container, init and ephemeral included', async () => {
    const r = await client.admit(call('mutating', ['AlwaysAdmit', 'AlwaysPullImages']));
    assert.equal(r.allowed, true);
    assert.deepEqual(policiesOf(r.object), ['Always', 'Always', 'Always']);
    assert.equal((r.object as ApiObject).metadata.name, 'p');
  });

  it('AlwaysPullImages validate refuses a pod whose policy is not Always', async () => {
    const r = await client.admit(call('validating', ['AlwaysPullImages']));
    assert.equal(r.allowed, false);
    assert.equal(r.status?.code, 403);
    assert.equal(
      r.status?.message,
      'pods "p" is forbidden: spec.initContainers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"'
    );
    const ok = await client.admit(
      call('validating', ['AlwaysPullImages'], { object: pod('Always') })
    );
    assert.equal(ok.allowed, true);
  });

  it('AlwaysPullImages: an update bringing no new image, other resources and other subresources are left alone', async () => {
    const rows: Partial<AdmissionCallRequest>[] = [
      { operation: 'UPDATE', oldObject: pod('IfNotPresent') },
      {
        resource: { group: '', version: 'v1', resource: 'configmaps' },
        kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      },
      { subResource: 'status' },
      { operation: 'DELETE', object: undefined, oldObject: pod('IfNotPresent') },
    ];
    for (const over of rows) {
      const m = await client.admit(call('mutating', ['AlwaysPullImages'], over));
      assert.equal(m.allowed, true, JSON.stringify(over));
      assert.equal(m.object, undefined, JSON.stringify(over));
      const v = await client.admit(call('validating', ['AlwaysPullImages'], over));
      assert.equal(v.allowed, true, JSON.stringify(over));
    }
    const notAPod = await client.admit(
      call('mutating', ['AlwaysPullImages'], {
        object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' } },
      })
    );
    assert.equal(notAPod.allowed, false);
    assert.equal(notAPod.status?.code, 400);
    assert.equal(
      notAPod.status?.message,
      'Resource was marked with kind Pod but was unable to be converted'
    );
    const ephemeral = await client.admit(
      call('mutating', ['AlwaysPullImages'], { subResource: 'ephemeralcontainers' })
    );
    assert.deepEqual(policiesOf(ephemeral.object), ['Always', 'Always', 'Always']);
  });

  it('an unknown plugin name is a BadRequest naming it and the registered ones', async () => {
    await assert.rejects(
      client.admit(call('mutating', ['AlwaysAdmit', 'PodSecurityPolicy'])),
      (e) => {
        assert.ok(e instanceof StatusError);
        assert.equal(e.code, 400);
        assert.equal(
          e.message,
          'admission plugin "PodSecurityPolicy" is not registered in the admission service (registered: AlwaysAdmit, AlwaysDeny, AlwaysPullImages, DefaultIngressClass, DefaultStorageClass, DefaultTolerationSeconds, DenyServiceExternalIPs, ExtendedResourceToleration, LimitPodHardAntiAffinityTopology, LimitRanger, MutatingAdmissionWebhook, NodeRestriction, PersistentVolumeClaimResize, PodNodeSelector, PodSecurity, PodTolerationRestriction, Priority, ResourceQuota, RuntimeClass, SecurityContextDeny, ServiceAccount, StorageObjectInUseProtection, TaintNodesByCondition, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook)'
        );
        return true;
      }
    );
  });

  it('a plugin that needs a configuration the service was not given (ImagePolicyWebhook) is refused saying so', async () => {
    await assert.rejects(client.admit(call('validating', ['ImagePolicyWebhook'])), (e) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 400);
      assert.match(
        e.message,
        /"ImagePolicyWebhook" is enabled but not configured in the admission service \(its configuration goes in --admission-control-config-file\)/
      );
      return true;
    });
  });

  it('the step and controller metrics carry upstream names and labels', async () => {
    const text = await server.registry.metrics();
    assert.match(
      text,
      /apiserver_admission_step_admission_duration_seconds_count\{component="admission",type="validate",operation="CREATE",rejected="true"\} [1-9]/
    );
    assert.match(
      text,
      /apiserver_admission_controller_admission_duration_seconds_count\{component="admission",name="AlwaysDeny",type="admit",operation="CREATE",rejected="true"\} [1-9]/
    );
    assert.match(
      text,
      /apiserver_admission_controller_admission_duration_seconds_count\{component="admission",name="AlwaysPullImages",type="admit",operation="CREATE",rejected="false"\} [1-9]/
    );
    // Upstream's stability classes, and the feature gates' gauge.
    assert.match(text, /# HELP apiserver_admission_step_admission_duration_seconds \[STABLE\] /);
    assert.match(text, /# HELP apiserver_admission_webhook_request_total \[ALPHA\] /);
    assert.match(
      text,
      /kubernetes_feature_enabled\{name="ConsistentListFromCache",stage="BETA",component="admission"\} 1/
    );
  });
});

describe('ListPlugins RPC', () => {
  it('lists every plugin the list places in the admission service, in order, those that need a configuration included', async () => {
    assert.deepEqual(await client.listPlugins(), pluginsPlacedIn('admission'));
  });

  it('says whether ResourceQuota has limitedResources (here it has no configuration: none), and PodSecurity’s defaults (privileged) and exemptions (none)', async () => {
    const fresh = new AdmissionClient({
      address: `127.0.0.1:${await server.serving}`,
      credentials: clientCredentials({ caFile: suite.pki.caFile, ...suite.pki.file('gateway') }),
    });
    try {
      assert.equal(fresh.quotaLimitedResources, true, 'until the service answers');
      assert.equal(fresh.podSecurity, undefined, 'until the service answers');
      await fresh.listPlugins();
      assert.equal(fresh.quotaLimitedResources, false);
      assert.deepEqual(fresh.podSecurity, {
        defaultAuditLevel: 'privileged',
        defaultWarnLevel: 'privileged',
        exemptNamespaces: [],
        exemptUsernames: [],
      });
    } finally {
      fresh.close();
    }
  });
});

describe('listers', () => {
  it('namespaces are synced before serving and follow changes', async () => {
    assert.ok(server.listers.namespaces.get('', 'default'), 'default namespace listed');
    const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'seen-by-admission' },
    });
    assert.equal(r.status, 201, r.text);
    await waitFor(
      'the new namespace in the lister',
      async () => server.listers.namespaces.get('', 'seen-by-admission') !== undefined,
      { timeoutMs: 30_000 }
    );
  });

  it('forResource starts an informer on first use, synced, listing by namespace', async () => {
    const created = await suite.request(0, 'POST', '/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'admission-server-params' },
      data: { max: '3' },
    });
    assert.equal(created.status, 201, created.text);
    const lister = await server.listers.forResource('', 'configmaps');
    assert.equal(await server.listers.forResource('', 'configmaps'), lister, 'one per resource');
    assert.deepEqual(lister.get('default', 'admission-server-params')?.['data'], {
      max: '3',
    });
    assert.ok(lister.list('default').some((o) => o.metadata.name === 'admission-server-params'));
    assert.equal(lister.list('kube-nowhere').length, 0);
    const roles = await server.listers.forResource('rbac.authorization.orch.io', 'clusterroles');
    assert.ok(roles.get('', 'cluster-admin'), 'a cluster-scoped resource of another group');
  });
});

describe('stopping', () => {
  it('with an AdmitCalls stream open: the server ends it and stops without the forced shutdown', async () => {
    const r = await client.admit(call('validating', ['AlwaysAdmit']));
    assert.equal(r.allowed, true, 'a call on the open stream');
    const t = Date.now();
    await started.stop();
    const ms = Date.now() - t;
    assert.ok(ms < 4000, `stopped in ${ms} ms; the forced shutdown comes at 5,000`);
    await assert.rejects(client.admit(call('validating', ['AlwaysAdmit'])), /admission service/);
  });
});
