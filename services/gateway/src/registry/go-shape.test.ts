// The created form of every stored built-in kind has the shape upstream's Go types give it: the
// structs and non-omitempty fields Go's encoder always writes, written here as upstream's
// serialization of the kind's object with an empty status (k8s.io/api at release 1.32, the Go
// type named in each test). Each object is created through the handler, its group provider's
// strategy and a Store on the in-memory storage, from @orch/apimachinery's realistic object
// without its status.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { goAlwaysWritten } from '@orch/apimachinery/schema-model';
import { realisticObjects } from '@orch/apimachinery/testdata';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { createResource } from '../handlers/create.js';
import { runHandler } from '../handlers/verb-test-kit.js';
import { restStorageProviders } from '../rest-storage-providers.js';
import { storedResource, strategyOf } from './rest-storage.js';
import { Store } from './store.js';

type Json = Record<string, any>;
const registry = new ResourceRegistry(builtinResources);
const providers = restStorageProviders();

function defOf(o: Json): ResourceDefinition {
  const [group, version] = (o['apiVersion'] as string).includes('/')
    ? (o['apiVersion'] as string).split('/')
    : ['', o['apiVersion'] as string];
  const def = registry
    .all()
    .find((d) => d.group === group && d.version === version && d.kind === o['kind'] && !d.virtual);
  assert.ok(def, `${String(o['apiVersion'])} ${String(o['kind'])}`);
  return def;
}

/** Creates `body` through the handler and a Store with its provider's strategy; the answer. */
async function created(body: Json): Promise<Json> {
  const def = defOf(body);
  const store = new Store(
    def,
    strategyOf(storedResource(providers, def), def),
    new MemoryStorage()
  );
  const ns = def.namespaced ? `namespaces/${String(body['metadata']?.namespace ?? 'ns')}/` : '';
  const prefix = def.group === '' ? '/api/v1' : `/apis/${def.group}/${def.version}`;
  const answer = await runHandler(createResource, {
    def,
    rest: store,
    method: 'POST',
    path: `${prefix}/${ns}${def.resource}`,
    body,
  });
  assert.equal(answer.code, 201, answer.body.toString());
  return answer.json<Json>();
}

const withoutStatus = (key: string): Json => {
  const o = structuredClone(realisticObjects[key]) as Json;
  delete o['status'];
  delete o['metadata']['resourceVersion'];
  delete o['metadata']['uid'];
  delete o['metadata']['creationTimestamp'];
  return o;
};

// [Go type, realistic object, the created status as upstream serializes it]
const statusRows: [string, string, unknown][] = [
  ['core/v1 ServiceStatus{LoadBalancer LoadBalancerStatus}', 'v1/Service', { loadBalancer: {} }],
  [
    'core/v1 ReplicationControllerStatus{Replicas int32}',
    'v1/ReplicationController',
    { replicas: 0 },
  ],
  ['core/v1 ResourceQuotaStatus', 'v1/ResourceQuota', {}],
  ['apps/v1 DeploymentStatus', 'apps/v1/Deployment', {}],
  ['apiregistration/v1 APIServiceStatus', 'apiregistration.orch.io/v1/APIService', {}],
  ['apps/v1 ReplicaSetStatus{Replicas int32}', 'apps/v1/ReplicaSet', { replicas: 0 }],
  [
    'apps/v1 StatefulSetStatus{Replicas, AvailableReplicas int32}',
    'apps/v1/StatefulSet',
    { replicas: 0, availableReplicas: 0 },
  ],
  [
    'apps/v1 DaemonSetStatus{CurrentNumberScheduled, NumberMisscheduled, DesiredNumberScheduled, NumberReady int32}',
    'apps/v1/DaemonSet',
    { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
  ],
  ['batch/v1 CronJobStatus', 'batch/v1/CronJob', {}],
  [
    'autoscaling/v1 HorizontalPodAutoscalerStatus{CurrentReplicas, DesiredReplicas int32}',
    'autoscaling/v1/HorizontalPodAutoscaler',
    { currentReplicas: 0, desiredReplicas: 0 },
  ],
  [
    'autoscaling/v2 HorizontalPodAutoscalerStatus{DesiredReplicas int32}',
    'autoscaling/v2/HorizontalPodAutoscaler',
    { desiredReplicas: 0 },
  ],
  [
    'policy/v1 PodDisruptionBudgetStatus{DisruptionsAllowed, CurrentHealthy, DesiredHealthy, ExpectedPods int32}',
    'policy/v1/PodDisruptionBudget',
    { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
  ],
  [
    'networking/v1 IngressStatus{LoadBalancer IngressLoadBalancerStatus}',
    'networking.orch.io/v1/Ingress',
    { loadBalancer: {} },
  ],
  ['flowcontrol/v1 FlowSchemaStatus', 'flowcontrol.apiserver.orch.io/v1/FlowSchema', {}],
  [
    'flowcontrol/v1 PriorityLevelConfigurationStatus',
    'flowcontrol.apiserver.orch.io/v1/PriorityLevelConfiguration',
    {},
  ],
  ['flowcontrol/v1beta3 FlowSchemaStatus', 'flowcontrol.apiserver.orch.io/v1beta3/FlowSchema', {}],
  [
    'flowcontrol/v1beta3 PriorityLevelConfigurationStatus',
    'flowcontrol.apiserver.orch.io/v1beta3/PriorityLevelConfiguration',
    {},
  ],
  [
    'storage/v1 VolumeAttachmentStatus{Attached bool}',
    'storage.orch.io/v1/VolumeAttachment',
    { attached: false },
  ],
  [
    'certificates/v1 CertificateSigningRequestStatus',
    'certificates.orch.io/v1/CertificateSigningRequest',
    {},
  ],
  [
    'admissionregistration/v1 ValidatingAdmissionPolicyStatus',
    'admissionregistration.orch.io/v1/ValidatingAdmissionPolicy',
    {},
  ],
  [
    'admissionregistration/v1beta1 ValidatingAdmissionPolicyStatus',
    'admissionregistration.orch.io/v1beta1/ValidatingAdmissionPolicy',
    {},
  ],
  ['batch/v1 JobStatus', 'batch/v1/Job', {}],
  [
    'core/v1 NamespaceStatus (SetDefaults_NamespaceStatus: Active)',
    'v1/Namespace',
    { phase: 'Active' },
  ],
  [
    'core/v1 PersistentVolumeStatus (PrepareForCreate: Pending, lastPhaseTransitionTime now)',
    'v1/PersistentVolume',
    { phase: 'Pending', lastPhaseTransitionTime: 'now' },
  ],
  [
    'core/v1 PersistentVolumeClaimStatus (SetDefaults_PersistentVolumeClaim: Pending)',
    'v1/PersistentVolumeClaim',
    { phase: 'Pending' },
  ],
  [
    'core/v1 NodeStatus{DaemonEndpoints NodeDaemonEndpoints, NodeInfo NodeSystemInfo}',
    'v1/Node',
    {
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: '',
        osImage: '',
        containerRuntimeVersion: '',
        kubeletVersion: '',
        kubeProxyVersion: '',
        operatingSystem: '',
        architecture: '',
      },
    },
  ],
  [
    'apiextensions/v1 CustomResourceDefinitionStatus{AcceptedNames CustomResourceDefinitionNames}',
    'apiextensions.orch.io/v1/CustomResourceDefinition',
    { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] },
  ],
];

for (const [goType, key, status] of statusRows) {
  test(`created ${key}: status as Go writes ${goType}`, async () => {
    const out = await created(withoutStatus(key));
    const got = out['status'];
    // A time the strategy sets when it creates: checked for its form, then compared as `now`.
    if (typeof got?.lastPhaseTransitionTime === 'string') {
      assert.match(got.lastPhaseTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      got.lastPhaseTransitionTime = 'now';
    }
    assert.deepEqual(got, status);
  });
}

// [Go field, realistic object, path in the created object, the value Go writes]
const specRows: [string, string, (o: Json) => unknown, unknown, ((o: Json) => void)?][] = [
  [
    'core/v1 Container.Resources ResourceRequirements',
    'apps/v1/Deployment',
    (o) => o['spec'].template.spec.containers[0].resources,
    {},
  ],
  [
    'core/v1 Event.Source EventSource',
    'v1/Event',
    (o) => o['source'],
    {},
    (o) => delete o['source'],
  ],
  [
    'core/v1 PersistentVolumeClaim.Status of a claim template, defaulted (SetDefaults_PersistentVolumeClaim)',
    'apps/v1/StatefulSet',
    (o) => o['spec'].volumeClaimTemplates[0].status,
    { phase: 'Pending' },
  ],
  [
    'core/v1 PodTemplateSpec.ObjectMeta',
    'batch/v1/CronJob',
    (o) => o['spec'].jobTemplate.spec.template.metadata,
    {},
  ],
];

for (const [goField, key, at, value, strip] of specRows) {
  test(`created ${key}: ${goField} written as Go writes it`, async () => {
    const body = withoutStatus(key);
    strip?.(body);
    assert.notDeepEqual(at(body), value);
    assert.deepEqual(at(await created(body)), value);
  });
}

test('every stored built-in kind whose Go type always writes a status has a row', () => {
  const kinds = new Set(statusRows.map(([, key]) => key));
  const missing: string[] = [];
  for (const key of Object.keys(realisticObjects)) {
    const o = realisticObjects[key] as Json;
    const def = registry
      .all()
      .find((d) => `${d.group ? `${d.group}/` : ''}${d.version}/${d.kind}` === key);
    if (!def || def.virtual) continue;
    const pkg = `${def.group.split('.')[0] || 'core'}.${def.version}.${String(o['kind'])}`;
    if (goAlwaysWritten.get(pkg)?.includes('status') && !kinds.has(key) && key !== 'v1/Pod')
      missing.push(key);
  }
  assert.deepEqual(missing, []);
});

const pod = (containers: Json[], more: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers, ...more },
});
const c = (resources?: Json): Json => ({
  name: 'c',
  image: 'nginx:1.27',
  ...(resources ? { resources } : {}),
});
const cpuMem = { cpu: '500m', memory: '128Mi' };

// [case, pod, the created status] (pod strategy PrepareForCreate: PodStatus{Phase: Pending,
// QOSClass: qos.GetPodQOS(pod)})
const podRows: [string, Json, Json][] = [
  ['no requests or limits: BestEffort', pod([c()]), { phase: 'Pending', qosClass: 'BestEffort' }],
  [
    'zero requests do not count: BestEffort',
    pod([c({ requests: { cpu: '0' } })]),
    { phase: 'Pending', qosClass: 'BestEffort' },
  ],
  [
    'a cpu request only: Burstable',
    pod([c({ requests: { cpu: '100m' } })]),
    { phase: 'Pending', qosClass: 'Burstable' },
  ],
  [
    'cpu and memory limits, requests defaulted from them: Guaranteed',
    pod([c({ limits: cpuMem })]),
    { phase: 'Pending', qosClass: 'Guaranteed' },
  ],
  [
    'limits equal to requests written otherwise (0.5 and 500m): Guaranteed',
    pod([c({ limits: cpuMem, requests: { cpu: '0.5', memory: '128Mi' } })]),
    { phase: 'Pending', qosClass: 'Guaranteed' },
  ],
  [
    'a memory request below its limit: Burstable',
    pod([c({ limits: cpuMem, requests: { cpu: '500m', memory: '64Mi' } })]),
    { phase: 'Pending', qosClass: 'Burstable' },
  ],
  [
    'an init container without limits: Burstable',
    pod([c({ limits: cpuMem })], { initContainers: [{ name: 'i', image: 'busybox:1.36' }] }),
    { phase: 'Pending', qosClass: 'Burstable' },
  ],
  [
    'only the memory limit: Burstable',
    pod([c({ limits: { memory: '128Mi' } })]),
    { phase: 'Pending', qosClass: 'Burstable' },
  ],
  [
    'a client status is dropped, its qosClass kept (GetPodQOS)',
    { ...pod([c()]), status: { phase: 'Running', qosClass: 'Guaranteed', podIP: '10.0.0.1' } },
    { phase: 'Pending', qosClass: 'Guaranteed' },
  ],
];

for (const [name, body, status] of podRows) {
  test(`created Pod: status phase Pending and qosClass, ${name}`, async () => {
    assert.deepEqual((await created(body))['status'], status);
  });
}

test('created Pod with scheduling gates: the PodScheduled False SchedulingGated condition', async () => {
  const out = await created(pod([c()], { schedulingGates: [{ name: 'example.com/gate' }] }));
  const [cond, ...rest] = out['status'].conditions as Json[];
  assert.deepEqual(rest, []);
  assert.match(cond?.['lastTransitionTime'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  delete cond?.['lastTransitionTime'];
  assert.deepEqual(cond, {
    type: 'PodScheduled',
    status: 'False',
    reason: 'SchedulingGated',
    message: 'Scheduling is blocked due to non-empty scheduling gates',
  });
  assert.equal(out['status'].phase, 'Pending');
});
