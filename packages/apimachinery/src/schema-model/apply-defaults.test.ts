import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchemaModel, builtinSchemaModel } from './schema-model.js';
import type { MessageSchema } from './schema-model.js';
import { applyDefaults } from './apply-defaults.js';
import { imageTag } from '../apis/core/index.js';
import { decodeMessage } from './decode-message.js';
import { encodeMessage } from './encode-message.js';

type Json = Record<string, any>;
const model = builtinSchemaModel();
const kind = (group: string, version: string, k: string): MessageSchema =>
  model.kind({ group, version, kind: k })!.message;
const pod = kind('', 'v1', 'Pod');
const service = kind('', 'v1', 'Service');
const deployment = kind('apps', 'v1', 'Deployment');
const defaulted = <T>(m: MessageSchema, obj: T): T => {
  applyDefaults(m, obj);
  return obj;
};

test('default_value options compile to values of the field type', () => {
  const field = (m: string, f: string): unknown =>
    model.message(m)?.jsonFields.get(f)?.field.default;
  assert.equal(field('orch.api.core.v1.ContainerPort', 'protocol'), 'TCP');
  assert.equal(field('orch.api.core.v1.PodSpec', 'terminationGracePeriodSeconds'), 30);
  assert.equal(field('orch.api.core.v1.SecretVolumeSource', 'defaultMode'), 420);
  assert.deepEqual(field('orch.api.apps.v1.DeploymentSpec', 'strategy'), {});
  // SetDefaults_PodSpec: an unset pod securityContext becomes {}.
  assert.deepEqual(field('orch.api.core.v1.PodSpec', 'securityContext'), {});
});

test('a pod: spec, every container kind, ports inside list items, probes inside inline handlers', () => {
  const p = defaulted(pod, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      initContainers: [
        { name: 'init', image: 'busybox', ports: [{ containerPort: 53, protocol: 'UDP' }] },
      ],
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          ports: [{ containerPort: 80 }, { containerPort: 443, protocol: '' }],
          resources: { limits: { cpu: '500m', memory: '64Mi' }, requests: { cpu: '100m' } },
          livenessProbe: { httpGet: { port: 80 }, timeoutSeconds: 0, periodSeconds: 5 },
          env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        },
      ],
      ephemeralContainers: [
        {
          name: 'debug',
          image: 'busybox@sha256:0123',
          targetContainerName: 'web',
          ports: [{ containerPort: 8080 }],
        },
      ],
      volumes: [
        { name: 's', secret: { secretName: 's' } },
        { name: 'c', configMap: { name: 'c', defaultMode: 0 } },
      ],
    },
  }) as Json;
  const spec = p['spec'];
  assert.deepEqual(
    [
      spec.restartPolicy,
      spec.dnsPolicy,
      spec.terminationGracePeriodSeconds,
      spec.schedulerName,
      spec.enableServiceLinks,
    ],
    ['Always', 'ClusterFirst', 30, 'default-scheduler', true]
  );
  assert.deepEqual(spec.securityContext, {});
  const web = spec.containers[0];
  assert.deepEqual(web.ports, [
    { containerPort: 80, protocol: 'TCP' },
    { containerPort: 443, protocol: 'TCP' },
  ]);
  assert.deepEqual(
    [web.terminationMessagePath, web.terminationMessagePolicy, web.imagePullPolicy],
    ['/dev/termination-log', 'File', 'IfNotPresent']
  );
  assert.deepEqual(web.resources.requests, { cpu: '100m', memory: '64Mi' });
  assert.deepEqual(web.livenessProbe, {
    httpGet: { port: 80, path: '/', scheme: 'HTTP' },
    timeoutSeconds: 1,
    periodSeconds: 5,
    successThreshold: 1,
    failureThreshold: 3,
  });
  assert.equal(web.env[0].valueFrom.fieldRef.apiVersion, 'v1');
  const init = spec.initContainers[0];
  assert.deepEqual([init.ports[0].protocol, init.imagePullPolicy], ['UDP', 'Always']);
  const debug = spec.ephemeralContainers[0];
  assert.deepEqual(
    [debug.ports[0].protocol, debug.imagePullPolicy, debug.terminationMessagePolicy],
    ['TCP', 'IfNotPresent', 'File']
  );
  assert.deepEqual(
    spec.volumes.map((v: Json) => (v['secret'] ?? v['configMap']).defaultMode),
    [420, 0]
  );
  // The ephemeral container (Container inline) survives the binary round trip.
  assert.deepEqual(
    (decodeMessage(pod, encodeMessage(pod, p)) as Json)['spec']['ephemeralContainers'],
    spec.ephemeralContainers
  );
});

test('image pull policy follows the tag as upstream parses it', () => {
  assert.deepEqual(
    [
      'nginx',
      'nginx:latest',
      'nginx:1.27',
      'localhost:5000/nginx',
      'localhost:5000/nginx:2',
      'nginx@sha256:abc',
      'nginx:latest@sha256:abc',
    ].map(imageTag),
    ['latest', 'latest', '1.27', 'latest', '2', '', 'latest']
  );
  const policy = (image: string | undefined, imagePullPolicy?: string): unknown =>
    (
      defaulted(pod, {
        spec: {
          containers: [
            {
              name: 'c',
              ...(image ? { image } : {}),
              ...(imagePullPolicy ? { imagePullPolicy } : {}),
            },
          ],
        },
      }) as Json
    )['spec']['containers'][0]['imagePullPolicy'];
  assert.deepEqual(
    [policy('nginx'), policy('nginx:1'), policy(undefined), policy('nginx', 'Never')],
    ['Always', 'IfNotPresent', 'IfNotPresent', 'Never']
  );
});

test('a service: type and affinity, protocol and targetPort per port, traffic policies by type', () => {
  const s = defaulted(service, {
    spec: {
      ports: [
        { port: 80 },
        { port: 53, protocol: 'UDP', targetPort: 'dns' },
        { port: 8080, targetPort: 0 },
      ],
    },
  }) as Json;
  assert.deepEqual(s['spec'], {
    ports: [
      { port: 80, protocol: 'TCP', targetPort: 80 },
      { port: 53, protocol: 'UDP', targetPort: 'dns' },
      { port: 8080, targetPort: 8080, protocol: 'TCP' },
    ],
    type: 'ClusterIP',
    sessionAffinity: 'None',
    internalTrafficPolicy: 'Cluster',
  });
  const lb = defaulted(service, { spec: { type: 'LoadBalancer', ports: [{ port: 443 }] } }) as Json;
  assert.deepEqual(
    [
      lb['spec'].externalTrafficPolicy,
      lb['spec'].internalTrafficPolicy,
      lb['spec'].allocateLoadBalancerNodePorts,
    ],
    ['Cluster', 'Cluster', true]
  );
  const ext = defaulted(service, {
    spec: { type: 'ExternalName', externalName: 'db.example.com' },
  }) as Json;
  assert.equal('internalTrafficPolicy' in ext['spec'], false);
});

test('a deployment: replicas, history, deadline, a rolling update strategy of 25%, the template spec; explicit zeros stay', () => {
  const d = defaulted(deployment, {
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: {
        spec: { containers: [{ name: 'c', image: 'i:1', ports: [{ containerPort: 80 }] }] },
      },
    },
  }) as Json;
  const spec = d['spec'];
  assert.deepEqual(
    [spec.replicas, spec.revisionHistoryLimit, spec.progressDeadlineSeconds],
    [1, 10, 600]
  );
  assert.deepEqual(spec.strategy, {
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
  });
  assert.equal(spec.template.spec.restartPolicy, 'Always');
  assert.equal(spec.template.spec.containers[0].ports[0].protocol, 'TCP');
  // enableServiceLinks is defaulted on Pods only, as upstream (SetDefaults_Pod, not _PodSpec).
  assert.equal('enableServiceLinks' in spec.template.spec, false);

  const zeros = defaulted(deployment, {
    spec: {
      replicas: 0,
      revisionHistoryLimit: 0,
      strategy: { type: 'Recreate' },
      template: { spec: { containers: [], terminationGracePeriodSeconds: 0 } },
    },
  }) as Json;
  assert.deepEqual(
    [
      zeros['spec'].replicas,
      zeros['spec'].revisionHistoryLimit,
      zeros['spec'].template.spec.terminationGracePeriodSeconds,
    ],
    [0, 0, 0]
  );
  assert.deepEqual(zeros['spec'].strategy, { type: 'Recreate' });
  const partial = defaulted(deployment, {
    spec: { strategy: { rollingUpdate: { maxSurge: 1 } } },
  }) as Json;
  assert.deepEqual(partial['spec'].strategy, {
    rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' },
    type: 'RollingUpdate',
  });
  assert.equal(
    (defaulted(kind('apps', 'v1', 'ReplicaSet'), { spec: {} }) as Json)['spec'].replicas,
    1
  );
});

test('defaulting is idempotent, key order included', () => {
  for (const [m, obj] of [
    [
      pod,
      {
        spec: {
          containers: [
            {
              name: 'c',
              image: 'i',
              ports: [{ containerPort: 1 }],
              resources: { limits: { cpu: '1' } },
            },
          ],
        },
      },
    ],
    [service, { spec: { type: 'NodePort', ports: [{ port: 1 }] } }],
    [deployment, { spec: { template: { spec: { containers: [{ name: 'c' }] } } } }],
  ] as const) {
    const once = defaulted(m, structuredClone(obj));
    const twice = defaulted(m, structuredClone(once));
    assert.equal(JSON.stringify(twice), JSON.stringify(once));
  }
});

test('map values and list items of a message are defaulted; a default that does not parse fails the compile', () => {
  const descriptor = (def: string): Record<string, unknown> => ({
    nested: {
      t: {
        nested: {
          Item: {
            fields: {
              protocol: { type: 'string', id: 1, options: { '(orch.api.default_value)': 'TCP' } },
              weight: { type: 'int32', id: 2, options: { '(orch.api.default_value)': def } },
            },
          },
          Holder: {
            fields: {
              byName: { keyType: 'string', type: 'Item', id: 1 },
              items: { rule: 'repeated', type: 'Item', id: 2 },
              one: { type: 'Item', id: 3 },
            },
          },
        },
      },
    },
  });
  const holder = new SchemaModel(descriptor('5')).message('t.Holder')!;
  const obj = { byName: { a: {}, b: { protocol: 'UDP', weight: 0 } }, items: [{}, { weight: 2 }] };
  applyDefaults(holder, obj);
  assert.deepEqual(obj, {
    byName: { a: { protocol: 'TCP', weight: 5 }, b: { protocol: 'UDP', weight: 5 } },
    items: [
      { protocol: 'TCP', weight: 5 },
      { weight: 2, protocol: 'TCP' },
    ],
  });
  assert.throws(
    () => new SchemaModel(descriptor('five')),
    /t\.Item\.weight has default_value "five": expected a number/
  );
});

test('a default that is the zero value of an omitempty field is not set: JSON and binary agree', () => {
  const rc = kind('', 'v1', 'ReplicationController');
  // minReadySeconds is documented to default to 0 (default_value "0"), a non-pointer int32.
  assert.equal(
    model.message('orch.api.core.v1.ReplicationControllerSpec')?.jsonFields.get('minReadySeconds')
      ?.field.default,
    0
  );
  const o = defaulted(rc, {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'r' },
    spec: { replicas: 3, selector: { app: 'a' } },
  });
  assert.equal('minReadySeconds' in o.spec, false);
  assert.deepEqual((decodeMessage(rc, encodeMessage(rc, o)) as Json)['spec'], o.spec);
  // A zero default of a field that keeps zeros (a pointer upstream) is set.
  const plc = kind('flowcontrol.apiserver.orch.io', 'v1', 'PriorityLevelConfiguration');
  const p = defaulted(plc, {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'p' },
    spec: { type: 'Limited', limited: {} },
  }) as Json;
  assert.equal(p['spec'].limited.lendablePercent, 0);
});
