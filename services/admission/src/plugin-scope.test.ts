// Each plugin against its scope in the one list (servicePluginScopes): over the realistic object
// of every built-in resource its scope leaves out, in each operation, with the cluster state that
// makes the plugins act (LimitRanges with defaults, default classes, a restricted namespace with
// a node selector), the plugin neither changes the object, refuses the write, warns, nor says it
// may validate. The gateway leaves out the admission call of a write whose every plugin has the
// resource out of scope, so a plugin that acted outside its scope would be skipped there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pluginsPlacedIn, scopeResource, servicePluginScopes } from '@orch/apimachinery/admission';
import type { ApiObject } from '@orch/apimachinery/meta';
import { builtinResources } from '@orch/apimachinery/registry';
import { realisticObjects } from '@orch/apimachinery/testdata';
import type { AdmissionRequest, Operation } from './interfaces.js';
import { namespace, pluginDeps, recordingContext } from './plugin-test-kit.js';
import { newPlugins, newServicePlugins } from './plugins.js';
import type { PluginFactories } from './plugins.js';

const state = pluginDeps({
  namespaces: [
    namespace(
      'default',
      { 'pod-security.kubernetes.io/enforce': 'restricted' },
      { 'scheduler.alpha.orch.io/node-selector': 'env=prod' }
    ),
  ],
  objects: {
    limitranges: [
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'defaults', namespace: 'default' },
        spec: {
          limits: [
            { type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '500m' } },
            { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
          ],
        },
      },
    ],
    storageclasses: [
      {
        apiVersion: 'storage.orch.io/v1',
        kind: 'StorageClass',
        metadata: {
          name: 'standard',
          annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
        },
        provisioner: 'example.com/disk',
      },
    ],
    ingressclasses: [
      {
        apiVersion: 'networking.orch.io/v1',
        kind: 'IngressClass',
        metadata: {
          name: 'nginx',
          annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' },
        },
        spec: { controller: 'example.com/ingress' },
      },
    ],
    priorityclasses: [
      {
        apiVersion: 'scheduling.orch.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'default-priority' },
        value: 1000,
        globalDefault: true,
      },
    ],
  },
});

/** The plugins with a static scope that this unit test can build (no configuration needed). */
function staticPlugins() {
  const registry = newServicePlugins();
  const factories: PluginFactories = {};
  for (const name of pluginsPlacedIn('admission')) {
    const scope = servicePluginScopes[name];
    if (scope === 'any' || scope === 'dynamic') continue;
    factories[name] = registry.factory(name);
  }
  const { config: _none, ...shared } = state;
  return newPlugins(factories, shared, new Map());
}

/** The realistic object of each built-in resource (the served version of its kind). */
function writes(): {
  group: string;
  version: string;
  resource: string;
  kind: string;
  object: ApiObject;
}[] {
  const out = [];
  for (const r of builtinResources) {
    const apiVersion = r.group === '' ? r.version : `${r.group}/${r.version}`;
    const object = realisticObjects[`${apiVersion}/${r.kind}`] as ApiObject | undefined;
    if (!object) continue;
    out.push({ group: r.group, version: r.version, resource: r.resource, kind: r.kind, object });
  }
  return out;
}

function requestFor(w: ReturnType<typeof writes>[number], operation: Operation): AdmissionRequest {
  const object = structuredClone(w.object);
  return {
    operation,
    kind: { group: w.group, version: w.version, kind: w.kind },
    resource: { group: w.group, version: w.version, resource: w.resource },
    subResource: '',
    namespace: object.metadata?.namespace ?? '',
    name: object.metadata?.name ?? '',
    userInfo: { name: 'alice', uid: '', groups: ['system:authenticated'], extra: {} },
    object: operation === 'DELETE' ? undefined : object,
    oldObject: operation === 'CREATE' ? undefined : structuredClone(w.object),
    options: undefined,
    dryRun: false,
  };
}

test('scope: no plugin changes, refuses or warns on a write of a resource out of its scope', async () => {
  const plugins = staticPlugins();
  assert.ok(plugins.size >= 15, `built only ${[...plugins.keys()].join(', ')}`);
  const all = writes();
  assert.ok(all.length >= 50, `only ${all.length} realistic objects found`);
  let checked = 0;
  for (const [name, plugin] of plugins) {
    const scope = servicePluginScopes[name as keyof typeof servicePluginScopes];
    for (const w of all) {
      if (Array.isArray(scope) && scope.includes(scopeResource(w))) continue;
      for (const op of ['CREATE', 'UPDATE', 'DELETE'] as const) {
        if (!plugin.handles(op)) continue;
        const req = requestFor(w, op);
        const before = JSON.stringify(req.object);
        const ctx = recordingContext();
        const where = `${name} on ${op} ${scopeResource(w)}`;
        await assert.doesNotReject(async () => {
          if (plugin.admit) await plugin.admit(req, ctx);
          if (plugin.validate) await plugin.validate(req, ctx);
        }, where);
        assert.equal(JSON.stringify(req.object), before, `${where} changed the object`);
        assert.deepEqual(ctx.warnings, [], `${where} warned`);
        if (plugin.mayValidate) {
          assert.equal(await plugin.mayValidate(req), false, `${where} may validate`);
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 1000, `only ${checked} writes checked`);
});

test('scope: each plugin acts on a resource its scope names (the state above makes them act)', async () => {
  // The test above would pass for a plugin that never acts; the pod's mutating plugins do act
  // here, so the state is live.
  const plugins = staticPlugins();
  const podWrite = writes().find((w) => w.group === '' && w.resource === 'pods')!;
  const req = requestFor(podWrite, 'CREATE');
  const before = JSON.stringify(req.object);
  const ctx = recordingContext();
  for (const name of ['LimitRanger', 'DefaultTolerationSeconds'] as const) {
    await plugins.get(name)!.admit!(req, ctx);
  }
  assert.notEqual(JSON.stringify(req.object), before);
});
