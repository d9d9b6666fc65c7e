// The local APIServices of the built-in group versions, as upstream's autoregister controller
// creates them at start (k8s cmd/kube-apiserver/app/aggregator.go: apiServicesToRegister,
// makeAPIService and its apiVersionPriorities; kube-aggregator pkg/controllers/autoregister), each
// `<version>.<group>` without a service, labelled `automanaged: onstart`, then marked Available
// with reason Local as upstream's availability controller marks local APIServices. A group
// version without a priority in upstream's table is skipped, as upstream skips it.
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import { upstreamGroup } from '@orch/apimachinery/schema';
import type { Logger } from '@orch/component-base/logs';
import { createUntilExists } from '../../create-until-exists.js';
import type { Store } from '../../store.js';
import { apiServiceStatusStrategy } from './strategy.js';

/** upstream's apiVersionPriorities, by `<upstream group>/<version>`: [group, version] priority. */
const apiVersionPriorities: ReadonlyMap<string, readonly [number, number]> = new Map([
  ['/v1', [18000, 1]],
  ['apps/v1', [17800, 15]],
  ['events.k8s.io/v1', [17750, 15]],
  ['authentication.k8s.io/v1', [17700, 15]],
  ['authentication.k8s.io/v1beta1', [17700, 9]],
  ['authentication.k8s.io/v1alpha1', [17700, 1]],
  ['authorization.k8s.io/v1', [17600, 15]],
  ['autoscaling/v1', [17500, 15]],
  ['autoscaling/v2', [17500, 30]],
  ['batch/v1', [17400, 15]],
  ['certificates.k8s.io/v1', [17300, 15]],
  ['certificates.k8s.io/v1alpha1', [17300, 1]],
  ['networking.k8s.io/v1', [17200, 15]],
  ['networking.k8s.io/v1alpha1', [17200, 1]],
  ['policy/v1', [17100, 15]],
  ['rbac.authorization.k8s.io/v1', [17000, 15]],
  ['storage.k8s.io/v1', [16800, 15]],
  ['storage.k8s.io/v1beta1', [16800, 9]],
  ['storage.k8s.io/v1alpha1', [16800, 1]],
  ['apiextensions.k8s.io/v1', [16700, 15]],
  ['admissionregistration.k8s.io/v1', [16700, 15]],
  ['admissionregistration.k8s.io/v1alpha1', [16700, 9]],
  ['scheduling.k8s.io/v1', [16600, 15]],
  ['coordination.k8s.io/v1', [16500, 15]],
  ['node.k8s.io/v1', [16300, 15]],
  ['discovery.k8s.io/v1', [16200, 15]],
  ['flowcontrol.apiserver.k8s.io/v1', [16100, 21]],
  ['flowcontrol.apiserver.k8s.io/v1beta3', [16100, 18]],
]);

export const automanagedLabel = 'kube-aggregator.kubernetes.io/automanaged';

/** The local APIService of each served built-in group version that upstream's table names. */
export function localAPIServices(registry: ResourceRegistry): ApiObject[] {
  const seen = new Set<string>();
  const out: ApiObject[] = [];
  for (const def of registry.all()) {
    if (def.customResource) continue;
    const key = `${upstreamGroup(def.group)}/${def.version}`;
    const priority = apiVersionPriorities.get(key);
    if (!priority || seen.has(key)) continue;
    seen.add(key);
    out.push({
      apiVersion: 'apiregistration.orch.io/v1',
      kind: 'APIService',
      metadata: { name: `${def.version}.${def.group}`, labels: { [automanagedLabel]: 'onstart' } },
      // Go omits the core group's empty name.
      spec: {
        ...(def.group ? { group: def.group } : {}),
        version: def.version,
        groupPriorityMinimum: priority[0],
        versionPriority: priority[1],
      },
    });
  }
  return out;
}

/** The Available condition of a local APIService (upstream's availability controller). */
export function localAvailable(now: Date): Record<string, unknown> {
  return {
    type: 'Available',
    status: 'True',
    lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z'),
    reason: 'Local',
    message: 'Local APIServices are always available',
  };
}

type Conditions = Record<string, unknown>[];

/** Creates the local APIServices unless they exist, then marks each Available; true once done. */
export async function ensureLocalAPIServices(
  apiServices: Store,
  registry: ResourceRegistry,
  log: Logger,
  signal?: AbortSignal,
  retryMs = 1000
): Promise<boolean> {
  const objects = localAPIServices(registry);
  if (!(await createUntilExists(apiServices, objects, 'local APIService', log, signal)))
    return false;
  const status = apiServices.withStrategy(apiServiceStatusStrategy);
  for (const o of objects) {
    for (;;) {
      if (signal?.aborted) return false;
      try {
        await status.update(
          {},
          o.metadata.name ?? '',
          (current) => {
            if (!current) throw new Error(`APIService ${o.metadata.name} is gone`);
            // One a user replaced with a service of its own is left to the availability checks.
            if ((current['spec'] as Record<string, unknown> | undefined)?.['service'])
              return current;
            const st = (current['status'] ?? {}) as { conditions?: Conditions };
            const conditions = st.conditions ?? [];
            const available = conditions.find((c) => c['type'] === 'Available');
            if (available?.['status'] === 'True' && available['reason'] === 'Local') return current;
            const others = conditions.filter((c) => c['type'] !== 'Available');
            return { ...current, status: { conditions: [...others, localAvailable(new Date())] } };
          },
          { dryRun: false }
        );
        break;
      } catch (err) {
        log.warn('could not mark a local APIService available, retrying', {
          name: o.metadata.name,
          err: String(err),
        });
        await new Promise((r) => setTimeout(r, retryMs));
      }
    }
  }
  return !signal?.aborted;
}
