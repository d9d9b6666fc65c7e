// The gateway's API Priority and Fairness, assembled: the controller sized from the in-flight
// flags, the config controller over the flowcontrol Stores and watch caches, and the filter's
// work-estimate sources (object counts and watcher counts from the watch caches).
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { Logger } from '@orch/component-base/logs';
import type { Cachers } from './cache/cachers.js';
import type { PriorityAndFairnessConfig } from './filters/with-priority-and-fairness.js';
import { ApfController } from './flowcontrol/apf-controller.js';
import { ApfConfigController } from './flowcontrol/config-controller.js';
import type { CompletedGatewayOptions } from './options.js';
import type { Store } from './registry/store.js';
import type { RequestInfo } from './request/request-info.js';

const group = 'flowcontrol.apiserver.orch.io/v1';

export function priorityAndFairness(
  registry: ResourceRegistry,
  stores: Map<string, Store>,
  cachers: Cachers,
  options: Pick<CompletedGatewayOptions, 'maxReadOnlyInFlight' | 'maxMutatingInFlight'> & {
    queueWaitMs?: number;
  },
  log: Logger
):
  | { controller: ApfController; config: ApfConfigController; filter: PriorityAndFairnessConfig }
  | undefined {
  const fs = stores.get(`${group}/flowschemas`);
  const pl = stores.get(`${group}/prioritylevelconfigurations`);
  if (!fs || !pl) return undefined;
  const controller = new ApfController({
    serverConcurrencyLimit: options.maxReadOnlyInFlight + options.maxMutatingInFlight,
  });
  const source = (store: Store) => {
    const cacher = cachers.for(store.def);
    return { store, cache: cacher.cache, start: () => void cacher.start({ required: true }) };
  };
  const config = new ApfConfigController(
    controller,
    { flowSchemas: source(fs), priorityLevels: source(pl) },
    log.child({ component: 'priority-and-fairness' })
  );
  /** The watch cache of the request's resource, when one runs. */
  const cacheOf = (info: RequestInfo) => {
    const def = registry.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (!def || def.virtual) return undefined;
    const cacher = cachers.for(def);
    return cacher.started ? cacher.cache : undefined;
  };
  return {
    controller,
    config,
    filter: {
      controller,
      // Upstream waits at most a quarter of the request timeout (60 s).
      queueWaitMs: options.queueWaitMs ?? 15_000,
      sources: {
        objectCount: (info) => cacheOf(info)?.size,
        watcherCount: (info) => cacheOf(info)?.listenerCount ?? 0,
      },
    },
  };
}
