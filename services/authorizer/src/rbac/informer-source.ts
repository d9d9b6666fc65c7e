// The RBAC objects in memory: four shared informers (roles, rolebindings, clusterroles,
// clusterrolebindings), so that a decision never waits for storage.
import type { NatsConnection } from 'nats';
import { SharedInformer } from '@orch/apimachinery/informer';
import type { InformerLogger, InformerStorage } from '@orch/apimachinery/informer';
import { builtinResources, storagePrefix } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { RbacSource } from './rule-resolver.js';
import type { Role, RoleBinding } from '@orch/apimachinery/auth';

export const rbacGroup = 'rbac.authorization.orch.io';

export function rbacDefinition(resource: string): ResourceDefinition {
  const def = builtinResources.find((d) => d.group === rbacGroup && d.resource === resource);
  if (!def) throw new Error(`${resource}.${rbacGroup} is not a registered resource`);
  return def;
}

export class InformerSource implements RbacSource {
  readonly roles: SharedInformer;
  readonly roleBindings: SharedInformer;
  readonly clusterRoles: SharedInformer;
  readonly clusterRoleBindings: SharedInformer;
  #bindingsByNamespace: Map<string, RoleBinding[]> | undefined;
  #clusterBindings: RoleBinding[] | undefined;

  constructor(storage: InformerStorage, nats: NatsConnection, log?: InformerLogger) {
    const informer = (resource: string): SharedInformer =>
      new SharedInformer({
        storage,
        nats,
        prefix: storagePrefix(rbacDefinition(resource)),
        ...(log ? { log } : {}),
      });
    this.roles = informer('roles');
    this.roleBindings = informer('rolebindings');
    this.clusterRoles = informer('clusterroles');
    this.clusterRoleBindings = informer('clusterrolebindings');
    const invalidate = (f: () => void) => ({ onAdd: f, onUpdate: f, onDelete: f });
    this.roleBindings.addEventHandler(invalidate(() => (this.#bindingsByNamespace = undefined)));
    this.clusterRoleBindings.addEventHandler(invalidate(() => (this.#clusterBindings = undefined)));
  }

  get all(): SharedInformer[] {
    return [this.roles, this.roleBindings, this.clusterRoles, this.clusterRoleBindings];
  }

  get synced(): boolean {
    return this.all.every((i) => i.synced);
  }

  /** How far each kind of RBAC object is applied: the revision each informer is complete up to. */
  revisions(): Record<string, number> {
    return {
      roles: this.roles.lastRevision,
      rolebindings: this.roleBindings.lastRevision,
      clusterroles: this.clusterRoles.lastRevision,
      clusterrolebindings: this.clusterRoleBindings.lastRevision,
    };
  }

  async start(): Promise<void> {
    await Promise.all(this.all.map((i) => i.start()));
  }

  stop(): void {
    for (const i of this.all) i.stop();
  }

  // The informers hold the decoded JSON of their RBAC resource: the casts below read it.
  getRole(namespace: string, name: string): Role | undefined {
    return this.roles.get(`${namespace}/${name}`) as Role | undefined;
  }

  getClusterRole(name: string): Role | undefined {
    return this.clusterRoles.get(name) as Role | undefined;
  }

  listRoleBindings(namespace: string): RoleBinding[] {
    if (!this.#bindingsByNamespace) {
      const m = new Map<string, RoleBinding[]>();
      for (const b of this.roleBindings.list() as RoleBinding[]) {
        const ns = b.metadata.namespace ?? '';
        const list = m.get(ns);
        if (list) list.push(b);
        else m.set(ns, [b]);
      }
      this.#bindingsByNamespace = m;
    }
    return this.#bindingsByNamespace.get(namespace) ?? [];
  }

  listClusterRoleBindings(): RoleBinding[] {
    return (this.#clusterBindings ??= this.clusterRoleBindings.list() as RoleBinding[]);
  }
}
