// Writes the bootstrap policy through the public API, as a client with the authorizer's own
// identity (k8s EnsureRBACPolicy, run by the RBAC bootstrap post-start hook over a loopback
// client in system:masters): a missing object is created (the gateway's Store fills the system
// fields, validates and admits it as any create); an existing one gets the rules or subjects it
// lacks, unless its `rbac.authorization.orch.io/autoupdate` annotation is "false". Nothing is
// ever removed.
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlreadyExists, isConflict, isNotFound } from '@orch/apimachinery/errors';
import { sameJson } from '@orch/apimachinery/meta';
import type { Logger } from '@orch/component-base/logs';
import type { ClusterRole, ClusterRoleBinding } from '@orch/api/rbac/v1';
import type { PolicyClient } from '../rbac/policy-client.js';
import { rbacPath } from '../rbac/policy-client.js';
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapNamespaceRoleBindings,
  bootstrapNamespaceRoles,
} from './policy.js';

type Json = Record<string, unknown>;

/** What an existing object lacks of the bootstrap one; undefined when nothing. */
// A Role has the fields of a ClusterRole the reconciler reads, a RoleBinding those of a
// ClusterRoleBinding; `want` and `have` are the JSON of one kind, `have` as the API answered it.
function missing(kind: 'role' | 'binding', want: Json, have: Json): Json | undefined {
  const annotations = ((have['metadata'] as Json | undefined)?.['annotations'] ?? {}) as Record<
    string,
    string
  >;
  if (annotations['rbac.authorization.orch.io/autoupdate'] === 'false') return undefined;
  if (kind === 'role') {
    const w = want as ClusterRole;
    const h = have as ClusterRole;
    if (w.aggregationRule) {
      // Rules of an aggregated role belong to the aggregator; only the selectors are kept up.
      return h.aggregationRule ? undefined : { ...have, aggregationRule: w.aggregationRule };
    }
    const rules = h.rules ?? [];
    const add = (w.rules ?? []).filter((r) => !rules.some((x) => sameJson(x, r)));
    return add.length ? { ...have, rules: [...rules, ...add] } : undefined;
  }
  const w = want as ClusterRoleBinding;
  const h = have as ClusterRoleBinding;
  const subjects = h.subjects ?? [];
  const add = (w.subjects ?? []).filter(
    (s) =>
      !subjects.some(
        (x) => x.kind === s.kind && x.name === s.name && (x.namespace ?? '') === (s.namespace ?? '')
      )
  );
  return add.length ? { ...have, subjects: [...subjects, ...add] } : undefined;
}

async function ensure(
  client: PolicyClient,
  resource: string,
  kind: 'role' | 'binding',
  want: Json,
  log: Logger
): Promise<void> {
  const name = (want['metadata'] as { name: string }).name;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await client.request('POST', rbacPath(resource), want);
      log.info('created bootstrap policy object', { resource, name });
      return;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    let have: Json;
    try {
      have = await client.request('GET', rbacPath(resource, name));
    } catch (err) {
      if (isNotFound(err)) continue; // deleted in between: create again
      throw err;
    }
    const next = missing(kind, want, have);
    if (!next) return;
    try {
      // `have` carries its resourceVersion: the update is conditional on it.
      await client.request('PUT', rbacPath(resource, name), next);
      log.info('reconciled bootstrap policy object', { resource, name });
      return;
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }
  throw new Error(`could not reconcile ${resource} ${name}: too many conflicts`);
}

/**
 * Creates or completes every bootstrap role and binding: the objects of one resource together
 * (each its own request), the resources in order (cluster roles before the bindings to them).
 */
export async function reconcilePolicy(client: PolicyClient, log: Logger): Promise<void> {
  const all = <T>(items: readonly T[], each: (item: T) => Promise<void>): Promise<void> =>
    Promise.all(items.map(each)).then(() => undefined);
  await all(bootstrapClusterRoles(), (r) => ensure(client, 'clusterroles', 'role', r, log));
  await all(bootstrapClusterRoleBindings(), (b) =>
    ensure(client, 'clusterrolebindings', 'binding', b, log)
  );
  await all(bootstrapNamespaceRoles(), (r) =>
    ensure(client, `namespaces/${r.metadata.namespace ?? ''}/roles`, 'role', r, log)
  );
  await all(bootstrapNamespaceRoleBindings(), (b) =>
    ensure(client, `namespaces/${b.metadata.namespace ?? ''}/rolebindings`, 'binding', b, log)
  );
}

/**
 * The bootstrap reconciliation as the authorizer runs it, in the background once its caches are
 * synced: in RBAC mode the gateway asks this very authorizer about each of these requests, so
 * they can only succeed once it answers decisions. Retries until the gateway answers and the
 * policy is in: every 0.2 s while the gateway refuses connections (it is still starting, and a
 * refused connection costs nothing), otherwise with backoff (0.2 s doubling to 5 s). Resolves
 * true then, false if aborted first.
 */
export async function reconcilePolicyWithBackoff(
  client: PolicyClient,
  log: Logger,
  signal: AbortSignal
): Promise<boolean> {
  for (let backoffMs = 200; !signal.aborted; backoffMs = Math.min(backoffMs * 2, 5000)) {
    try {
      await reconcilePolicy(client, log);
      return true;
    } catch (err) {
      if (signal.aborted) break;
      const refused = (err as { code?: unknown }).code === 'ECONNREFUSED';
      const delayMs = refused ? 200 : backoffMs;
      if (refused) backoffMs = 100; // doubled to 200 by the loop: backoff starts over
      log.info('bootstrap policy not reconciled yet; retrying', { err: String(err), delayMs });
      // Ends early on abort (the rejection is the abort; the loop condition sees it).
      await sleep(delayMs, undefined, { signal }).catch(() => undefined);
    }
  }
  return false;
}
