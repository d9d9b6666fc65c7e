// Aggregated ClusterRoles (k8s clusterroleaggregation controller): a ClusterRole with an
// aggregationRule gets the union of the rules of every ClusterRole its selectors match. Every
// authorizer replica runs it; writes carry the read revision as a precondition, so replicas
// agree (a lost race is a conflict and the next change event recomputes).
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import { storageKey } from '@orch/apimachinery/registry';
import { labelSelectorFromLabelSelectorObject } from '@orch/apimachinery/selectors';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';
import type { Logger } from '@orch/component-base/logs';
import { rbacDefinition } from './informer-source.js';
import type { PolicyRule, Role } from '@orch/apimachinery/auth';

/** The rules an aggregated role should have, given every ClusterRole (sorted by name, deduplicated). */
export function aggregatedRules(role: Role, all: Role[]): PolicyRule[] {
  const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []).map((s) =>
    labelSelectorFromLabelSelectorObject(s as LabelSelectorObject)
  );
  const seen = new Set<string>();
  const out: PolicyRule[] = [];
  const sorted = [...all].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
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

export interface AggregationWriter {
  get(key: string, consistency: 'MOST_RECENT'): Promise<Record<string, unknown>>;
  update(key: string, object: Record<string, unknown>, pre: { revision?: number }): Promise<Record<string, unknown>>;
}

export class ClusterRoleAggregator {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(
    private readonly list: () => Role[],
    private readonly storage: AggregationWriter,
    private readonly log: Logger
  ) {}

  /** Recomputes soon (changes arriving together are handled once). */
  schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#running.then(() => this.reconcile()).catch((err: unknown) => this.log.warn('aggregation failed', { err: String(err) }));
    }, 50);
  }

  async reconcile(): Promise<void> {
    const all = this.list();
    for (const role of all) {
      if (!role.aggregationRule) continue;
      const want = aggregatedRules(role, all);
      if (JSON.stringify(want) === JSON.stringify(role.rules ?? [])) continue;
      const key = storageKey(rbacDefinition('clusterroles'), undefined, role.metadata.name ?? '');
      try {
        const current = (await this.storage.get(key, 'MOST_RECENT')) as Role;
        await this.storage.update(key, { ...current, rules: want }, { revision: Number(current.metadata.resourceVersion) });
        this.log.info('aggregated cluster role updated', { name: role.metadata.name, rules: want.length });
      } catch (err) {
        if (isConflict(err) || isNotFound(err)) continue; // the change event that follows recomputes
        throw err;
      }
    }
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }
}
