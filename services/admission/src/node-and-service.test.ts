// NodeRestriction, DenyServiceExternalIPs and EventRateLimit, row by row with upstream's cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import { newDenyServiceExternalIPs } from './deny-service-external-ips/deny-service-external-ips.js';
import {
  newEventRateLimit,
  parseEventRateLimitConfig,
} from './event-rate-limit/event-rate-limit.js';
import { newNodeRestriction } from './node-restriction/node-restriction.js';
import { pluginDeps, pod, recordingContext, request } from './plugin-test-kit.js';
import type { RequestOptions } from './plugin-test-kit.js';

const nodeUser = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const mirror = { annotations: { 'orch.io/config.mirror': 'hash' } };
const bound = (name: string, nodeName: string, extra: Record<string, unknown> = {}) =>
  pod(name, { nodeName, containers: [{ name: 'c' }], ...extra });
const nodeObj = (
  name: string,
  labels: Record<string, string> = {},
  taints?: unknown[]
): ApiObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels },
  spec: taints ? { taints } : {},
});

const nrRows: { name: string; req: RequestOptions; error?: string }[] = [
  {
    name: 'another user is not restricted',
    req: {
      resource: 'nodes',
      name: 'n2',
      object: nodeObj('n2'),
      user: { name: 'admin', groups: ['system:masters'] },
    },
  },
  {
    name: 'a node may create a mirror pod bound to itself',
    req: { resource: 'pods', object: bound('m', 'n1', {}), user: nodeUser },
    error:
      'pods "m" is forbidden: pod does not have "orch.io/config.mirror" annotation, node "n1" can only create mirror pods',
  },
  {
    name: 'a mirror pod bound to itself is allowed',
    req: {
      resource: 'pods',
      object: { ...bound('m', 'n1'), metadata: { name: 'm', namespace: 'ns', ...mirror } },
      user: nodeUser,
    },
  },
  {
    name: 'a mirror pod bound to another node is refused',
    req: {
      resource: 'pods',
      object: { ...bound('m', 'n2'), metadata: { name: 'm', namespace: 'ns', ...mirror } },
      user: nodeUser,
    },
    error: 'pods "m" is forbidden: node "n1" can only create pods with spec.nodeName set to itself',
  },
  {
    name: 'a mirror pod referencing a secret is refused',
    req: {
      resource: 'pods',
      object: {
        ...bound('m', 'n1', { volumes: [{ name: 's', secret: { secretName: 's' } }] }),
        metadata: { name: 'm', namespace: 'ns', ...mirror },
      },
      user: nodeUser,
    },
    error: 'pods "m" is forbidden: node "n1" can not create pods that reference secrets',
  },
  {
    name: 'deleting a pod bound to itself',
    req: {
      operation: 'DELETE',
      resource: 'pods',
      name: 'p',
      oldObject: bound('p', 'n1'),
      user: nodeUser,
    },
  },
  {
    name: 'deleting a pod bound elsewhere is refused',
    req: {
      operation: 'DELETE',
      resource: 'pods',
      name: 'p',
      oldObject: bound('p', 'n2'),
      user: nodeUser,
    },
    error: 'pods "p" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
  },
  {
    name: 'updating a pod is refused',
    req: {
      operation: 'UPDATE',
      resource: 'pods',
      object: bound('p', 'n1'),
      oldObject: bound('p', 'n1'),
      user: nodeUser,
    },
    error:
      'pods "p" is forbidden: unexpected operation UPDATE, node "n1" can only create and delete mirror pods',
  },
  {
    name: 'the status of its own pod',
    req: {
      operation: 'UPDATE',
      resource: 'pods',
      subResource: 'status',
      object: bound('p', 'n1'),
      oldObject: bound('p', 'n1'),
      user: nodeUser,
    },
  },
  {
    name: 'the status of another node’s pod is refused',
    req: {
      operation: 'UPDATE',
      resource: 'pods',
      subResource: 'status',
      object: bound('p', 'n2'),
      oldObject: bound('p', 'n2'),
      user: nodeUser,
    },
    error:
      'pods "p" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
  },
  {
    name: 'its own node',
    req: {
      resource: 'nodes',
      object: nodeObj('n1', { 'orch.io/hostname': 'n1', 'example.com/rack': '3' }),
      user: nodeUser,
    },
  },
  {
    name: 'another node is refused',
    req: {
      operation: 'UPDATE',
      resource: 'nodes',
      object: nodeObj('n2'),
      oldObject: nodeObj('n2'),
      user: nodeUser,
    },
    error: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
  },
  {
    name: 'labels under node-restriction.orch.io/ cannot be set',
    req: {
      resource: 'nodes',
      object: nodeObj('n1', { 'node-restriction.orch.io/pci': 'yes', 'orch.io/other': 'x' }),
      user: nodeUser,
    },
    error:
      'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.orch.io/pci, orch.io/other',
  },
  {
    name: 'taints cannot be changed on update',
    req: {
      operation: 'UPDATE',
      resource: 'nodes',
      object: nodeObj('n1', {}, [{ key: 'k', effect: 'NoSchedule' }]),
      oldObject: nodeObj('n1'),
      user: nodeUser,
    },
    error: 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
  },
  {
    name: 'a restricted label cannot be removed on update',
    req: {
      operation: 'UPDATE',
      resource: 'nodes',
      object: nodeObj('n1'),
      oldObject: nodeObj('n1', { 'node-restriction.orch.io/pci': 'yes' }),
      user: nodeUser,
    },
    error:
      'nodes "n1" is forbidden: node "n1" is not allowed to modify labels: node-restriction.orch.io/pci',
  },
  {
    name: 'its own lease',
    req: {
      group: 'coordination.orch.io',
      resource: 'leases',
      namespace: 'orch-node-lease',
      name: 'n1',
      object: { metadata: { name: 'n1' } },
      user: nodeUser,
    },
  },
  {
    name: 'another node’s lease is refused',
    req: {
      group: 'coordination.orch.io',
      operation: 'UPDATE',
      resource: 'leases',
      namespace: 'orch-node-lease',
      name: 'n2',
      object: { metadata: { name: 'n2' } },
      user: nodeUser,
    },
    error:
      'leases.coordination.orch.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
  },
  {
    name: 'a token bound to a pod on another node is refused',
    req: {
      resource: 'serviceaccounts',
      subResource: 'token',
      name: 'default',
      object: {
        metadata: {},
        spec: { boundObjectRef: { kind: 'Pod', name: 'elsewhere', uid: 'u2' } },
      },
      user: nodeUser,
    },
    error:
      'serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node',
  },
  {
    name: 'a token not bound to a pod is refused',
    req: {
      resource: 'serviceaccounts',
      subResource: 'token',
      name: 'default',
      object: { metadata: {}, spec: {} },
      user: nodeUser,
    },
    error: 'serviceaccounts "default" is forbidden: node requested token not bound to a pod',
  },
  {
    name: 'a token bound to its own pod',
    req: {
      resource: 'serviceaccounts',
      subResource: 'token',
      name: 'default',
      object: { metadata: {}, spec: { boundObjectRef: { kind: 'Pod', name: 'here', uid: 'u1' } } },
      user: nodeUser,
    },
  },
  {
    name: 'the user system:node: with no name is refused',
    req: {
      resource: 'configmaps',
      object: { metadata: { name: 'c' } },
      user: { name: 'system:node:', groups: ['system:nodes'] },
    },
    error: 'configmaps "c" is forbidden: could not determine node from user "system:node:"',
  },
];
const podsOnNodes = [
  { ...bound('here', 'n1'), metadata: { name: 'here', namespace: 'ns', uid: 'u1' } },
  { ...bound('elsewhere', 'n2'), metadata: { name: 'elsewhere', namespace: 'ns', uid: 'u2' } },
];
for (const row of nrRows) {
  test(`NodeRestriction: ${row.name}`, async () => {
    const plugin = newNodeRestriction(pluginDeps({ objects: { pods: podsOnNodes } }));
    const run = plugin.validate!(request(row.req), recordingContext());
    if (row.error) await assert.rejects(run, { code: 403, message: row.error });
    else await run;
  });
}

const svc = (externalIPs?: string[]) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 's', namespace: 'ns' },
  spec: externalIPs ? { externalIPs } : {},
});
const dseRows: { name: string; req: RequestOptions; refused: boolean }[] = [
  {
    name: 'a create without externalIPs',
    req: { resource: 'services', object: svc() },
    refused: false,
  },
  {
    name: 'a create with externalIPs',
    req: { resource: 'services', object: svc(['1.2.3.4']) },
    refused: true,
  },
  {
    name: 'an update keeping them',
    req: {
      operation: 'UPDATE',
      resource: 'services',
      object: svc(['1.2.3.4']),
      oldObject: svc(['1.2.3.4', '5.6.7.8']),
    },
    refused: false,
  },
  {
    name: 'an update adding one',
    req: {
      operation: 'UPDATE',
      resource: 'services',
      object: svc(['1.2.3.4', '9.9.9.9']),
      oldObject: svc(['1.2.3.4']),
    },
    refused: true,
  },
];
for (const row of dseRows) {
  test(`DenyServiceExternalIPs: ${row.name}`, async () => {
    const run = newDenyServiceExternalIPs(pluginDeps()).validate!(
      request(row.req),
      recordingContext()
    );
    if (row.refused)
      await assert.rejects(run, {
        code: 403,
        message: 'services "s" is forbidden: Use of external IPs is denied by admission control',
      });
    else await run;
  });
}

const event = (name: string, namespace = 'ns') => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace },
  involvedObject: { kind: 'Pod', name: 'p', namespace },
  source: { component: 'kubelet', host: 'n1' },
});

test('EventRateLimit: a Namespace limit of burst 2 refuses the third event with upstream’s 429, other namespaces unaffected', async () => {
  let now = 0;
  const plugin = newEventRateLimit(
    pluginDeps({ config: { limits: [{ type: 'Namespace', qps: 1, burst: 2 }] } }),
    () => now
  );
  const send = (name: string, namespace = 'ns') =>
    plugin.validate!(
      request({ resource: 'events', namespace, object: event(name, namespace) }),
      recordingContext()
    );
  await send('a');
  await send('b');
  await assert.rejects(send('c'), {
    code: 429,
    message: 'Too many requests: limit reached on type Namespace for key ns',
  });
  await send('d', 'other');
  now += 1000; // one token back at 1 qps
  await send('e');
  await assert.rejects(send('f'), { code: 429 });
});

test('EventRateLimit: every limit is asked; two refusing are both named', async () => {
  const plugin = newEventRateLimit(
    pluginDeps({
      config: {
        limits: [
          { type: 'Server', qps: 1, burst: 1 },
          { type: 'User', qps: 1, burst: 1 },
        ],
      },
    }),
    () => 0
  );
  const send = () =>
    plugin.validate!(request({ resource: 'events', object: event('x') }), recordingContext());
  await send();
  await assert.rejects(send(), {
    message:
      'Too many requests: [limit reached on type Server for key , limit reached on type User for key alice]',
  });
});

test('EventRateLimit: other kinds and events of other groups pass', async () => {
  const plugin = newEventRateLimit(
    pluginDeps({ config: { limits: [{ type: 'Server', qps: 1, burst: 1 }] } }),
    () => 0
  );
  for (let i = 0; i < 3; i++) {
    await plugin.validate!(
      request({ resource: 'configmaps', object: { metadata: { name: 'c' } } }),
      recordingContext()
    );
    await plugin.validate!(
      request({ group: 'events.orch.io', resource: 'events', object: event('x') }),
      recordingContext()
    );
  }
});

const erlConfigRows: { name: string; raw: unknown; error: RegExp }[] = [
  { name: 'no configuration', raw: undefined, error: /EventRateLimit configuration: required/ },
  {
    name: 'no limits',
    raw: { limits: [] },
    error: /limits: Invalid value: \[\]: must not be empty/,
  },
  {
    name: 'an unknown type',
    raw: { limits: [{ type: 'Pod', qps: 1, burst: 1 }] },
    error:
      /limits\[0\]\.type: Unsupported value: "Pod": supported values: "Server", "Namespace", "User", "SourceAndObject"/,
  },
  {
    name: 'qps not positive',
    raw: { limits: [{ type: 'User', qps: 0, burst: 1 }] },
    error: /limits\[0\]\.qps: Invalid value: 0: must be positive/,
  },
  {
    name: 'burst missing',
    raw: { limits: [{ type: 'User', qps: 1 }] },
    error: /limits\[0\]\.burst: Invalid value: 0: must be positive/,
  },
  {
    name: 'a negative cacheSize',
    raw: { limits: [{ type: 'User', qps: 1, burst: 1, cacheSize: -1 }] },
    error: /limits\[0\]\.cacheSize: Invalid value: -1: must not be negative/,
  },
];
for (const row of erlConfigRows) {
  test(`EventRateLimit configuration: ${row.name} is refused, naming the field`, () => {
    assert.throws(() => parseEventRateLimitConfig(row.raw), row.error);
  });
}
