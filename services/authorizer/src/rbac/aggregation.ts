// Aggregated ClusterRoles (k8s clusterroleaggregation controller): a ClusterRole with an
// aggregationRule gets the union of the rules of every ClusterRole its selectors match. Every
// authorizer replica runs it, writing through the public API with the authorizer's identity (as
// upstream's controller acts through the API); an update carries the resourceVersion it read, so
// replicas agree (a lost race is a conflict and the next change event recomputes).
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import { labelSelectorFromLabelSelectorObject } from '@orch/apimachinery/selectors';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';
import { sameJson } from '@orch/apimachinery/meta';
import type { Logger } from '@orch/component-base/logs';
import type { PolicyRule, Role } from '@orch/apimachinery/auth';
import type { ClusterRole } from '@orch/api/rbac/v1';
import type { PolicyClient } from './policy-client.js';
import { rbacPath } from './policy-client.js';

/** The rules an aggregated role should have, given every ClusterRole (sorted by name, deduplicated). */
export function aggregatedRules(role: Role, all: Role[]): PolicyRule[] {
  const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []).map((s) =>
    labelSelectorFromLabelSelectorObject(s as LabelSelectorObject)
  );
  const seen = new Set<string>();
  const out: PolicyRule[] = [];
  const sorted = [...all].sort((a, b) =>
    (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')
  );
  for (const other of sorted) {
    if (other.metadata.name === role.metadata.name) continue;
    if (!selectors.some((s) => s.matches(other.metadata.labels ?? {}))) continue;
    for (const r of other.rules ?? []) {
      const k = JSON.stringify(r);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(r);
    }
  }
  return out;
}

export class ClusterRoleAggregator {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(
    private readonly list: () => Role[],
    private readonly client: PolicyClient,
    private readonly log: Logger
  ) {}

  /** Recomputes soon (changes arriving together are handled once); a failure retries in 1 s. */
  schedule(delayMs = 50): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#running
        .then(() => this.reconcile())
        .catch((err: unknown) => {
          this.log.warn('aggregation failed; retrying', { err: String(err) });
          this.schedule(1000);
        });
    }, delayMs);
  }

  async reconcile(): Promise<void> {
    const all = this.list();
    for (const role of all) {
      if (!role.aggregationRule) continue;
      const want = aggregatedRules(role, all);
      if (sameJson(want, role.rules ?? [])) continue;
      const path = rbacPath('clusterroles', role.metadata.name ?? '');
      try {
        const current = (await this.client.request('GET', path)) as ClusterRole;
        await this.client.request('PUT', path, { ...current, rules: want });
        this.log.info('aggregated cluster role updated', {
          name: role.metadata.name,
          rules: want.length,
        });
      } catch (err) {
        if (isConflict(err) || isNotFound(err)) continue; // the change event that follows recomputes
        throw err;
      }
    }
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }
}
