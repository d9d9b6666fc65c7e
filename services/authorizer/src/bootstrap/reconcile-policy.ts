// Writes the bootstrap policy through the storage service at start (k8s
// EnsureRBACPolicy + reconciliation): a missing object is created with the system fields any
// created object has; an existing one gets the rules or subjects it lacks, unless its
// `rbac.authorization.orch.io/autoupdate` annotation is "false". Nothing is ever removed.
import { randomUUID } from 'node:crypto';
import { isAlreadyExists, isConflict } from '@orch/apimachinery/errors';
import { storageKey } from '@orch/apimachinery/registry';
import type { Logger } from '@orch/component-base/logs';
import { rbacDefinition } from '../rbac/informer-source.js';
import type { Binding, Role } from '../rbac/types.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './policy.js';

type Json = Record<string, unknown>;

export interface PolicyWriter {
  get(key: string, consistency: 'MOST_RECENT'): Promise<Json>;
  create(key: string, object: Json): Promise<Json>;
  update(key: string, object: Json, pre: { revision?: number }): Promise<Json>;
}

const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** What an existing object lacks of the bootstrap one; undefined when nothing. */
function missing(kind: 'role' | 'binding', want: Json, have: Json): Json | undefined {
  const annotations = ((have['metadata'] as Json | undefined)?.['annotations'] ?? {}) as Record<string, string>;
  if (annotations['rbac.authorization.orch.io/autoupdate'] === 'false') return undefined;
  if (kind === 'role') {
    const w = want as unknown as Role;
    const h = have as unknown as Role;
    if (w.aggregationRule) {
      // Rules of an aggregated role belong to the aggregator; only the selectors are kept up.
      return h.aggregationRule ? undefined : { ...have, aggregationRule: w.aggregationRule };
    }
    const rules = h.rules ?? [];
    const add = (w.rules ?? []).filter((r) => !rules.some((x) => same(x, r)));
    return add.length ? { ...have, rules: [...rules, ...add] } : undefined;
  }
  const w = want as unknown as Binding;
  const h = have as unknown as Binding;
  const subjects = h.subjects ?? [];
  const add = (w.subjects ?? []).filter((s) => !subjects.some((x) => x.kind === s.kind && x.name === s.name && (x.namespace ?? '') === (s.namespace ?? '')));
  return add.length ? { ...have, subjects: [...subjects, ...add] } : undefined;
}

async function ensure(storage: PolicyWriter, resource: string, kind: 'role' | 'binding', want: Json, log: Logger): Promise<void> {
  const name = (want['metadata'] as { name: string }).name;
  const key = storageKey(rbacDefinition(resource), undefined, name);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const obj = structuredClone(want);
      Object.assign(obj['metadata'] as Json, { uid: randomUUID(), creationTimestamp: now(), generation: 1 });
      await storage.create(key, obj);
      log.info('created bootstrap policy object', { resource, name });
      return;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    const have = await storage.get(key, 'MOST_RECENT');
    const next = missing(kind, want, have);
    if (!next) return;
    try {
      const rv = Number((have['metadata'] as Json)['resourceVersion']);
      await storage.update(key, next, { revision: rv });
      log.info('reconciled bootstrap policy object', { resource, name });
      return;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
  throw new Error(`could not reconcile ${resource} ${name}: too many conflicts`);
}

/** Creates or completes every bootstrap role and binding. */
export async function reconcilePolicy(storage: PolicyWriter, log: Logger): Promise<void> {
  for (const r of bootstrapClusterRoles()) await ensure(storage, 'clusterroles', 'role', r as unknown as Json, log);
  for (const b of bootstrapClusterRoleBindings()) await ensure(storage, 'clusterrolebindings', 'binding', b as unknown as Json, log);
}
