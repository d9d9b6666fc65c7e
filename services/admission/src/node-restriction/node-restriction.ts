// NodeRestriction (k8s.io/kubernetes plugin/pkg/admission/noderestriction), validating: a node
// agent (user `system:node:<name>` in group `system:nodes`) may change only its own Node and
// what is bound to it, for the kinds served here:
// - pods: create only mirror pods (annotation `orch.io/config.mirror`) bound to itself, with no
//   service account, no secret, config map or claim volumes, owned (if at all) by its Node;
//   delete only pods bound to itself; no other write of pods;
// - pods/status: only of pods bound to itself; pods/eviction: likewise;
// - nodes and nodes/status: only its own Node; it may not change taints, and may not set or
//   change labels under `node-restriction.orch.io/` nor labels of orch.io domains other than the
//   ones the agent reports (hostname, os, arch, instance type, zone and region, `kubelet.orch.io/`
//   and `node.orch.io/`);
// - leases: only its own, in the node lease namespace;
// - serviceaccounts/token: only tokens bound to a pod bound to itself.
// Any other user passes; the user `system:node:` with no name is refused (upstream's "could
// not determine node").
import { newForbidden } from '@orch/apimachinery/errors';
import type { GroupResource } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  AdmissionRequest,
  ObjectLister,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'NodeRestriction' satisfies ServicePluginName;

export const nodesGroup = 'system:nodes';
export const nodeUserPrefix = 'system:node:';
export const mirrorPodAnnotation = 'orch.io/config.mirror';
export const nodeLeaseNamespace = 'orch-node-lease';
export const restrictedLabelPrefix = 'node-restriction.orch.io/';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x): x is Obj => !!obj(x)) : []);
const specOf = (o: ApiObject | undefined): Obj => obj(o?.['spec']) ?? {};

/**
 * The node a user acts for (upstream's NodeIdentity): a name `system:node:<name>` in group
 * system:nodes; '' for `system:node:` itself; undefined for anyone else.
 */
export function nodeIdentity(user: { name: string; groups: string[] }): string | undefined {
  if (!user.name.startsWith(nodeUserPrefix) || !user.groups.includes(nodesGroup)) return undefined;
  return user.name.slice(nodeUserPrefix.length);
}

/** Labels under orch.io domains the node agent reports about itself (upstream's kubelet labels). */
const allowedNodeLabels = new Set([
  'orch.io/hostname',
  'orch.io/arch',
  'orch.io/os',
  'beta.orch.io/arch',
  'beta.orch.io/os',
  'beta.orch.io/instance-type',
  'node.orch.io/instance-type',
  'failure-domain.beta.orch.io/region',
  'failure-domain.beta.orch.io/zone',
  'topology.orch.io/region',
  'topology.orch.io/zone',
]);
const allowedNodeLabelPrefixes = ['kubelet.orch.io/', 'node.orch.io/'];

/** A label the node agent may not set (upstream's isForbiddenLabel / node-restriction namespace). */
export function isForbiddenNodeLabel(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const domain = key.slice(0, slash);
  if (domain === 'node-restriction.orch.io' || domain.endsWith('.node-restriction.orch.io')) {
    return true;
  }
  if (domain !== 'orch.io' && !domain.endsWith('.orch.io')) return false;
  if (allowedNodeLabels.has(key)) return false;
  return !allowedNodeLabelPrefixes.some((p) => key.startsWith(p));
}

const podsGR: GroupResource = { group: '', resource: 'pods' };

export function newNodeRestriction(deps: PluginDeps): ServicePlugin {
  let podLister: Promise<ObjectLister> | undefined;
  const pods = (): Promise<ObjectLister> => (podLister ??= deps.listers.forResource('', 'pods'));

  const forbid = (req: AdmissionRequest, why: string) =>
    newForbidden({ group: req.resource.group, resource: req.resource.resource }, req.name, why);

  const admitPod = async (req: AdmissionRequest, node: string): Promise<void> => {
    switch (req.subResource) {
      case '': {
        if (req.operation === 'CREATE') {
          const pod = req.object;
          const spec = specOf(pod);
          if (pod?.metadata.annotations?.[mirrorPodAnnotation] === undefined) {
            throw forbid(
              req,
              `pod does not have "${mirrorPodAnnotation}" annotation, node "${node}" can only create mirror pods`
            );
          }
          if (spec['nodeName'] !== node) {
            throw forbid(
              req,
              `node "${node}" can only create pods with spec.nodeName set to itself`
            );
          }
          const owners = pod.metadata.ownerReferences ?? [];
          if (owners.length > 1) {
            throw forbid(
              req,
              `node "${node}" can only create pods with a single owner reference set to itself`
            );
          }
          if (owners.length === 1) {
            const o = owners[0]!;
            if (o.apiVersion !== 'v1' || o.kind !== 'Node' || o.name !== node) {
              throw forbid(
                req,
                `node "${node}" can only create pods with an owner reference set to itself`
              );
            }
            if (o.controller !== true) {
              throw forbid(
                req,
                `node "${node}" can only create pods with a controller owner reference set to itself`
              );
            }
          }
          if (spec['serviceAccountName']) {
            throw forbid(
              req,
              `node "${node}" can not create pods that reference a service account`
            );
          }
          for (const v of arr(spec['volumes'])) {
            if (v['secret'])
              throw forbid(req, `node "${node}" can not create pods that reference secrets`);
            if (v['configMap'])
              throw forbid(req, `node "${node}" can not create pods that reference configmaps`);
            if (v['persistentVolumeClaim']) {
              throw forbid(
                req,
                `node "${node}" can not create pods that reference persistentvolumeclaims`
              );
            }
            if (v['projected']) {
              throw forbid(
                req,
                `node "${node}" can not create pods that reference secrets, configmaps, or service accounts through projected volumes`
              );
            }
          }
          return;
        }
        if (req.operation === 'DELETE') {
          // A pod already gone passes (upstream: NotFound is not this plugin's answer).
          if (!req.oldObject) return;
          if (specOf(req.oldObject)['nodeName'] !== node) {
            throw forbid(
              req,
              `node "${node}" can only delete pods with spec.nodeName set to itself`
            );
          }
          return;
        }
        throw forbid(
          req,
          `unexpected operation ${req.operation}, node "${node}" can only create and delete mirror pods`
        );
      }
      case 'status': {
        if (req.operation !== 'UPDATE') {
          throw forbid(req, `unexpected operation ${req.operation}`);
        }
        if (specOf(req.oldObject ?? req.object)['nodeName'] !== node) {
          throw forbid(
            req,
            `node "${node}" can only update pod status for pods with spec.nodeName set to itself`
          );
        }
        return;
      }
      case 'eviction': {
        const lister = await pods();
        const pod = lister.get(req.namespace, req.name);
        if (!pod) return;
        if (specOf(pod)['nodeName'] !== node) {
          throw forbid(req, `node "${node}" can only evict pods with spec.nodeName set to itself`);
        }
        return;
      }
      default:
        throw forbid(
          req,
          `unexpected subresource ${req.subResource}, node "${node}" may not access it`
        );
    }
  };

  const admitNode = (req: AdmissionRequest, node: string): void => {
    const requested = req.name || req.object?.metadata.name || '';
    if (requested !== node) {
      throw forbid(req, `node "${node}" is not allowed to modify node "${requested}"`);
    }
    if (req.operation === 'CREATE' && req.object) {
      const bad = Object.keys(req.object.metadata.labels ?? {})
        .filter(isForbiddenNodeLabel)
        .sort();
      if (bad.length > 0) {
        throw forbid(
          req,
          `node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`
        );
      }
    }
    if (req.operation === 'UPDATE' && req.object && req.oldObject) {
      if (
        JSON.stringify(specOf(req.object)['taints'] ?? []) !==
        JSON.stringify(specOf(req.oldObject)['taints'] ?? [])
      ) {
        throw forbid(req, `node "${node}" is not allowed to modify taints`);
      }
      const now = req.object.metadata.labels ?? {};
      const before = req.oldObject.metadata.labels ?? {};
      const changed = [...new Set([...Object.keys(now), ...Object.keys(before)])]
        .filter((k) => now[k] !== before[k])
        .filter(isForbiddenNodeLabel)
        .sort();
      if (changed.length > 0) {
        throw forbid(req, `node "${node}" is not allowed to modify labels: ${changed.join(', ')}`);
      }
    }
  };

  const admitLease = (req: AdmissionRequest, node: string): void => {
    if (req.namespace !== nodeLeaseNamespace) {
      throw forbid(req, `can only access leases in the "${nodeLeaseNamespace}" system namespace`);
    }
    if (req.name !== node) {
      throw forbid(req, `can only access node lease with the same name as the requesting node`);
    }
  };

  const admitToken = async (req: AdmissionRequest, node: string): Promise<void> => {
    const ref = obj(specOf(req.object)['boundObjectRef']);
    if (!ref) throw forbid(req, 'node requested token not bound to a pod');
    if (ref['kind'] !== 'Pod') {
      throw forbid(req, `node requested token bound to a ${String(ref['kind'] ?? '')}`);
    }
    if (!ref['uid']) throw forbid(req, 'node requested token with a pod binding without a uid');
    const pod = (await pods()).get(req.namespace, String(ref['name'] ?? ''));
    if (!pod) {
      throw newForbidden(
        podsGR,
        String(ref['name'] ?? ''),
        'node requested token bound to a pod that does not exist'
      );
    }
    if (pod.metadata.uid !== ref['uid']) {
      throw forbid(
        req,
        `the UID in the bound object reference (${String(ref['uid'])}) does not match the UID in record. The object might have been deleted and then recreated`
      );
    }
    if (specOf(pod)['nodeName'] !== node) {
      throw forbid(req, 'node requested token bound to a pod scheduled on a different node');
    }
  };

  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    mayValidate: async (req) => nodeIdentity(req.userInfo) !== undefined,
    async validate(req) {
      const node = nodeIdentity(req.userInfo);
      if (node === undefined) return;
      if (node === '') {
        throw forbid(req, `could not determine node from user "${req.userInfo.name}"`);
      }
      const { group, resource } = req.resource;
      if (group === '' && resource === 'pods') return admitPod(req, node);
      if (group === '' && resource === 'nodes') return admitNode(req, node);
      if (group === 'coordination.orch.io' && resource === 'leases') return admitLease(req, node);
      if (group === '' && resource === 'serviceaccounts' && req.subResource === 'token') {
        return admitToken(req, node);
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newNodeRestriction);
}
