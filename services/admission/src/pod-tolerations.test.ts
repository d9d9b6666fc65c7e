// The plugins that add tolerations and taints or check node selection, row by row with
// upstream's cases: DefaultTolerationSeconds, TaintNodesByCondition, ExtendedResourceToleration,
// LimitPodHardAntiAffinityTopology, PodNodeSelector, PodTolerationRestriction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import { newDefaultTolerationSeconds } from './default-toleration-seconds/default-toleration-seconds.js';
import { newExtendedResourceToleration } from './extended-resource-toleration/extended-resource-toleration.js';
import type { AdmissionRequest, ServicePlugin } from './interfaces.js';
import { newLimitPodHardAntiAffinityTopology } from './limit-pod-hard-anti-affinity-topology/limit-pod-hard-anti-affinity-topology.js';
import { namespace, pluginDeps, pod, recordingContext, request } from './plugin-test-kit.js';
import type { KitOptions } from './plugin-test-kit.js';
import {
  newPodNodeSelector,
  parsePodNodeSelectorConfig,
} from './pod-node-selector/pod-node-selector.js';
import {
  newPodTolerationRestriction,
  parsePodTolerationRestrictionConfig,
} from './pod-toleration-restriction/pod-toleration-restriction.js';
import { newTaintNodesByCondition } from './taint-nodes-by-condition/taint-nodes-by-condition.js';

/** Runs admit then validate; the final object's spec, or the error. */
async function both(
  plugin: ServicePlugin,
  req: AdmissionRequest
): Promise<{ spec?: any; error?: any }> {
  try {
    if (plugin.admit && plugin.handles(req.operation)) await plugin.admit(req, recordingContext());
    if (plugin.validate && plugin.handles(req.operation))
      await plugin.validate(req, recordingContext());
    return { spec: (req.object as any)?.spec };
  } catch (error) {
    return { error };
  }
}

const notReady = (s: number) => ({
  key: 'node.orch.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: s,
});
const unreachable = (s: number) => ({
  key: 'node.orch.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: s,
});

const dtsRows: {
  name: string;
  tolerations?: unknown[];
  want: unknown[];
  settings?: [number, number];
}[] = [
  { name: 'no tolerations: both added at 300 s', want: [notReady(300), unreachable(300)] },
  {
    name: 'the flags set the seconds',
    settings: [60, 120],
    want: [notReady(60), unreachable(120)],
  },
  {
    name: 'a not-ready NoExecute toleration is kept, unreachable added',
    tolerations: [
      {
        key: 'node.orch.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 10,
      },
    ],
    want: [
      {
        key: 'node.orch.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 10,
      },
      unreachable(300),
    ],
  },
  {
    name: 'a toleration of every taint (no key, Exists, no effect) tolerates both',
    tolerations: [{ operator: 'Exists' }],
    want: [{ operator: 'Exists' }],
  },
  {
    name: 'a NoSchedule toleration of not-ready does not count',
    tolerations: [{ key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
    want: [
      { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
      notReady(300),
      unreachable(300),
    ],
  },
];
for (const row of dtsRows) {
  test(`DefaultTolerationSeconds: ${row.name}`, async () => {
    const settings = row.settings
      ? {
          defaultNotReadyTolerationSeconds: row.settings[0],
          defaultUnreachableTolerationSeconds: row.settings[1],
        }
      : undefined;
    const plugin = newDefaultTolerationSeconds(pluginDeps(settings ? { settings } : {}));
    const r = await both(
      plugin,
      request({
        resource: 'pods',
        object: pod('x', {
          containers: [{ name: 'c' }],
          ...(row.tolerations ? { tolerations: row.tolerations } : {}),
        }),
      })
    );
    assert.deepEqual(r.spec.tolerations, row.want);
  });
}

const node = (taints?: unknown[]): ApiObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1' },
  spec: taints ? { taints } : {},
});

test('TaintNodesByCondition: a new node gets node.orch.io/not-ready:NoSchedule', async () => {
  const r = await both(
    newTaintNodesByCondition(pluginDeps()),
    request({ resource: 'nodes', object: node([{ key: 'a', effect: 'NoExecute' }]) })
  );
  assert.deepEqual(r.spec.taints, [
    { key: 'a', effect: 'NoExecute' },
    { key: 'node.orch.io/not-ready', effect: 'NoSchedule' },
  ]);
});

test('TaintNodesByCondition: a node that has the taint keeps one; updates are left alone', async () => {
  const had = await both(
    newTaintNodesByCondition(pluginDeps()),
    request({
      resource: 'nodes',
      object: node([{ key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]),
    })
  );
  assert.equal(had.spec.taints.length, 1);
  const upd = await both(
    newTaintNodesByCondition(pluginDeps()),
    request({ operation: 'UPDATE', resource: 'nodes', object: node(), oldObject: node() })
  );
  assert.deepEqual(upd.spec, {});
});

test('ExtendedResourceToleration: a toleration per extended resource requested, none for native ones', async () => {
  const r = await both(
    newExtendedResourceToleration(pluginDeps()),
    request({
      resource: 'pods',
      object: pod('x', {
        initContainers: [{ name: 'i', resources: { requests: { 'example.com/fpga': '1' } } }],
        containers: [
          {
            name: 'c',
            resources: {
              requests: {
                cpu: '1',
                'example.com/gpu': '2',
                'orch.io/thing': '1',
                'hugepages-2Mi': '1Mi',
              },
            },
          },
        ],
        tolerations: [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      }),
    })
  );
  assert.deepEqual(r.spec.tolerations, [
    { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'example.com/fpga', operator: 'Exists', effect: 'NoSchedule' },
  ]);
});

const antiAffinity = (topologyKey: string) => ({
  containers: [{ name: 'c' }],
  affinity: {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {}, topologyKey }],
    },
  },
});
test('LimitPodHardAntiAffinityTopology: the host name key is allowed', async () => {
  const r = await both(
    newLimitPodHardAntiAffinityTopology(pluginDeps()),
    request({ resource: 'pods', object: pod('x', antiAffinity('orch.io/hostname')) })
  );
  assert.equal(r.error, undefined);
});
test('LimitPodHardAntiAffinityTopology: another key is refused with upstream’s message', async () => {
  const r = await both(
    newLimitPodHardAntiAffinityTopology(pluginDeps()),
    request({ resource: 'pods', object: pod('x', antiAffinity('topology.orch.io/zone')) })
  );
  assert.equal(
    r.error?.message,
    'pods "x" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.orch.io/zone but only key orch.io/hostname is allowed'
  );
});

const pnsRows: {
  name: string;
  annotation?: string;
  config?: unknown;
  nodeSelector?: Record<string, string>;
  want?: Record<string, string>;
  error?: string;
}[] = [
  {
    name: 'the namespace annotation is merged in',
    annotation: 'env=prod',
    nodeSelector: { disk: 'ssd' },
    want: { disk: 'ssd', env: 'prod' },
  },
  {
    name: 'without the annotation, the cluster default is merged in',
    config: { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'region=east' } },
    want: { region: 'east' },
  },
  {
    name: 'an empty annotation overrides the cluster default',
    annotation: '',
    config: { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'region=east' } },
    nodeSelector: { a: 'b' },
    want: { a: 'b' },
  },
  {
    name: 'a conflict with the namespace selector is refused',
    annotation: 'env=prod',
    nodeSelector: { env: 'dev' },
    error:
      'pods "x" is forbidden: pod node label selector conflicts with its namespace node label selector',
  },
  {
    name: 'a label outside the namespace whitelist is refused',
    config: { podNodeSelectorPluginConfig: { ns: 'env=prod,disk=ssd' } },
    nodeSelector: { gpu: 'yes' },
    error:
      'pods "x" is forbidden: pod node label selector labels conflict with its namespace whitelist',
  },
  {
    name: 'labels inside the whitelist pass',
    config: { podNodeSelectorPluginConfig: { ns: 'env=prod,disk=ssd' } },
    nodeSelector: { disk: 'ssd' },
    want: { disk: 'ssd' },
  },
];
for (const row of pnsRows) {
  test(`PodNodeSelector: ${row.name}`, async () => {
    const opts: KitOptions = {
      namespaces: [
        namespace(
          'ns',
          undefined,
          row.annotation !== undefined
            ? { 'scheduler.alpha.orch.io/node-selector': row.annotation }
            : undefined
        ),
      ],
      config: row.config,
    };
    const r = await both(
      newPodNodeSelector(pluginDeps(opts)),
      request({
        resource: 'pods',
        object: pod('x', {
          containers: [{ name: 'c' }],
          ...(row.nodeSelector ? { nodeSelector: row.nodeSelector } : {}),
        }),
      })
    );
    if (row.error) assert.equal(r.error?.message, row.error);
    else assert.deepEqual(r.spec.nodeSelector, row.want);
  });
}

test('PodNodeSelector configuration: a bad selector is refused, naming the entry', () => {
  assert.throws(
    () => parsePodNodeSelectorConfig({ podNodeSelectorPluginConfig: { 'team-a': 'env' } }),
    /podNodeSelectorPluginConfig\[team-a\]: Invalid value: "env": invalid selector/
  );
});

const gpu = { key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' };
const dedicated = { key: 'dedicated', operator: 'Equal', value: 'a', effect: 'NoSchedule' };
const memoryPressure = {
  key: 'node.orch.io/memory-pressure',
  operator: 'Exists',
  effect: 'NoSchedule',
};
const ptrRows: {
  name: string;
  annotations?: Record<string, string>;
  config?: unknown;
  tolerations?: unknown[];
  resources?: boolean;
  want?: unknown[];
  error?: string;
}[] = [
  {
    name: 'the namespace default tolerations are merged in',
    annotations: { 'scheduler.alpha.orch.io/defaultTolerations': JSON.stringify([dedicated]) },
    tolerations: [gpu],
    want: [dedicated, gpu],
  },
  {
    name: 'without the annotation, the configuration’s default',
    config: { default: [dedicated] },
    want: [dedicated],
  },
  {
    name: 'a conflict between the namespace and the pod is refused',
    annotations: { 'scheduler.alpha.orch.io/defaultTolerations': JSON.stringify([dedicated]) },
    tolerations: [{ ...dedicated, value: 'b' }],
    error: 'pods "x" is forbidden: namespace tolerations and pod tolerations conflict',
  },
  {
    name: 'a pod that is not BestEffort tolerates memory pressure',
    resources: true,
    want: [memoryPressure],
  },
  {
    name: 'a toleration outside the namespace whitelist is refused',
    annotations: { 'scheduler.alpha.orch.io/tolerationsWhitelist': JSON.stringify([dedicated]) },
    tolerations: [gpu],
    error:
      'pods "x" is forbidden: pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
  },
  {
    name: 'a toleration outside the cluster whitelist is refused',
    config: { whitelist: [dedicated] },
    tolerations: [gpu],
    error:
      'pods "x" is forbidden: pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist',
  },
  {
    name: 'an Exists whitelist entry allows any value of its key',
    config: { whitelist: [{ key: 'gpu', operator: 'Exists' }] },
    tolerations: [gpu],
    want: [gpu],
  },
];
for (const row of ptrRows) {
  test(`PodTolerationRestriction: ${row.name}`, async () => {
    const r = await both(
      newPodTolerationRestriction(
        pluginDeps({
          namespaces: [namespace('ns', undefined, row.annotations)],
          config: row.config,
        })
      ),
      request({
        resource: 'pods',
        object: pod('x', {
          containers: [
            { name: 'c', ...(row.resources ? { resources: { requests: { cpu: '1' } } } : {}) },
          ],
          ...(row.tolerations ? { tolerations: row.tolerations } : {}),
        }),
      })
    );
    if (row.error) assert.equal(r.error?.message, row.error);
    else assert.deepEqual(r.spec.tolerations, row.want);
  });
}

test('PodTolerationRestriction configuration: bad entries are refused, naming the field', () => {
  assert.throws(
    () =>
      parsePodTolerationRestrictionConfig({
        default: [{ key: 'a', operator: 'Maybe' }],
        whitelist: 'x',
      }),
    /default\[0\]\.operator: Unsupported value: "Maybe".*whitelist: Invalid value: "x"/
  );
});
