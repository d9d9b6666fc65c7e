// OwnerReferencesPermissionEnforcement (k8s plugin/pkg/admission/gc gcPermissionsEnforcement):
// changing an object's ownerReferences on update needs `delete` on the object (on create the
// creator could as well not have created it), and setting blockOwnerDeletion to true on a
// reference needs `update` of the owner's `finalizers` subresource (every resource its kind maps
// to; a namespaced owner in the object's namespace), unless the user may update the finalizers
// of anything. pods/status is exempt, as upstream's whitelist. Validating; off by default.
import { newForbidden } from '@orch/apimachinery/errors';
import type { Attributes, UserInfo } from '@orch/apimachinery/auth';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isDeepStrictEqual } from 'node:util';
import type { Authorizer } from '../../authz/authorizer.js';
import type {
  AdmissionAttributes,
  AdmissionPlugin,
  GatewayPluginName,
  GatewayPlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'OwnerReferencesPermissionEnforcement' satisfies GatewayPluginName;

interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  blockOwnerDeletion?: boolean;
}

const refsOf = (o: ApiObject | undefined): OwnerReference[] =>
  ((o?.metadata as { ownerReferences?: OwnerReference[] } | undefined)?.ownerReferences ??
    []) as OwnerReference[];

/** k8s isChangingOwnerReference. */
export function isChangingOwnerReference(obj: ApiObject, old: ApiObject | undefined): boolean {
  const now = refsOf(obj);
  if (!old) return now.length > 0;
  const before = refsOf(old);
  return now.length !== before.length || now.some((r, i) => !isDeepStrictEqual(r, before[i]));
}

/** k8s newBlockingOwnerDeletionRefs: references blocking now that did not before. */
export function newBlockingOwnerDeletionRefs(
  obj: ApiObject,
  old: ApiObject | undefined
): OwnerReference[] {
  const blocking = refsOf(obj).filter((r) => r.blockOwnerDeletion === true);
  if (!old) return blocking;
  const before = new Map(refsOf(old).map((r) => [r.uid, r]));
  return blocking.filter((r) => before.get(r.uid)?.blockOwnerDeletion !== true);
}

export interface OwnerReferencesDeps {
  authorizer: Authorizer;
  registry: ResourceRegistry;
}

export function ownerReferencesPermissionEnforcement(deps: OwnerReferencesDeps): AdmissionPlugin {
  const ask = async (a: Omit<Attributes, 'isResourceRequest' | 'path'>) => {
    const r = await deps.authorizer.authorize({ ...a, isResourceRequest: true, path: '' });
    return r;
  };
  const forbidden = (a: AdmissionAttributes, message: string) =>
    newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, message);

  const validate = async (a: AdmissionAttributes): Promise<void> => {
    const user: UserInfo | undefined = a.user;
    if (!a.object || !user) return;
    if (a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === 'status')
      return;
    if (!isChangingOwnerReference(a.object, a.oldObject)) return;
    if (a.operation !== 'CREATE') {
      const r = await ask({
        user,
        verb: 'delete',
        namespace: a.namespace,
        apiGroup: a.resource.group,
        apiVersion: a.resource.version,
        resource: a.resource.resource,
        subresource: a.subresource,
        name: a.name,
      });
      if (r.decision !== 'allow')
        throw forbidden(
          a,
          `cannot set an ownerRef on a resource you can't delete: ${r.reason}, <nil>`
        );
    }
    const blocking = newBlockingOwnerDeletionRefs(a.object, a.oldObject);
    if (blocking.length === 0) return;
    const anything = await ask({
      user,
      verb: 'update',
      namespace: '',
      apiGroup: '*',
      apiVersion: '*',
      resource: '*',
      subresource: 'finalizers',
      name: '*',
    });
    if (anything.decision === 'allow') return;
    for (const ref of blocking) {
      const slash = ref.apiVersion.indexOf('/');
      const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
      const version = slash < 0 ? ref.apiVersion : ref.apiVersion.slice(slash + 1);
      const mappings = deps.registry
        .all()
        .filter((d) => d.group === group && d.version === version && d.kind === ref.kind);
      if (mappings.length === 0) {
        throw forbidden(
          a,
          `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`
        );
      }
      for (const m of mappings) {
        const r = await ask({
          user,
          verb: 'update',
          namespace: m.namespaced ? a.namespace : '',
          apiGroup: m.group,
          apiVersion: m.version,
          resource: m.resource,
          subresource: 'finalizers',
          name: ref.name,
        });
        if (r.decision !== 'allow')
          throw forbidden(
            a,
            `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${r.reason}, <nil>`
          );
      }
    }
  };
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    validate,
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: GatewayPlugins): void {
  plugins.register(pluginName, (d) =>
    ownerReferencesPermissionEnforcement({ authorizer: d.authorizer, registry: d.registry })
  );
}
