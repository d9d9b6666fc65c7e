// The gateway's API Priority and Fairness, assembled: the controller sized from the in-flight
// flags, the config controller over the flowcontrol Stores and watch caches, and the filter's
// work-estimate sources (object counts and watcher counts from the watch caches, the watchers of
// the whole fleet when the gateways share their occupancy over NATS).
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { NatsConnection } from 'nats';
import type { Registry } from 'prom-client';
import type { Logger } from '@orch/component-base/logs';
import type { Cachers } from './cache/cachers.js';
import type { PriorityAndFairnessConfig } from './filters/with-priority-and-fairness.js';
import { ApfController } from './flowcontrol/apf-controller.js';
import { FleetSharing } from './flowcontrol/fleet-sharing.js';
import { ApfMetrics } from './flowcontrol/apf-metrics.js';
import { ApfConfigController } from './flowcontrol/config-controller.js';
import { dumpPriorityLevels, dumpQueues, dumpRequests } from './flowcontrol/dump.js';
import type { HttpRequest, HttpResponse } from './http/handler.js';
import type { PathMux } from './http/path-mux.js';
import type { CompletedGatewayOptions } from './options.js';
import type { Store } from './registry/store.js';
import type { RequestInfo } from './request/request-info.js';

const group = 'flowcontrol.apiserver.orch.io/v1';

export interface PriorityAndFairness {
  controller: ApfController;
  config: ApfConfigController;
  /** The fleet summaries over NATS (absent when turned off or without NATS). */
  fleet: FleetSharing | undefined;
  filter: PriorityAndFairnessConfig;
  /** The /debug/api_priority_and_fairness/ dumps. */
  installDebug: (mux: PathMux) => void;
}

export function priorityAndFairness(
  registry: ResourceRegistry,
  stores: Map<string, Store>,
  cachers: Cachers,
  options: Pick<CompletedGatewayOptions, 'maxReadOnlyInFlight' | 'maxMutatingInFlight'> & {
    queueWaitMs?: number;
    enableFleetPriorityAndFairness?: boolean;
  },
  log: Logger,
  metrics: Registry,
  nats?: NatsConnection
): PriorityAndFairness | undefined {
  const fs = stores.get(`${group}/flowschemas`);
  const pl = stores.get(`${group}/prioritylevelconfigurations`);
  if (!fs || !pl) return undefined;
  const controller = new ApfController({
    serverConcurrencyLimit: options.maxReadOnlyInFlight + options.maxMutatingInFlight,
    observer: new ApfMetrics(metrics),
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
    return cacher.started ? cacher : undefined;
  };
  const fleet =
    nats && options.enableFleetPriorityAndFairness !== false
      ? new FleetSharing({
          nats,
          controller,
          localWatchers: () => new Map(cachers.all().map((c) => [c.prefix, c.cache.listenerCount])),
          log: log.child({ component: 'priority-and-fairness-fleet' }),
        })
      : undefined;
  const text =
    (dump: (c: ApfController) => string) =>
    (_req: HttpRequest, res: HttpResponse): void => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(dump(controller));
    };
  return {
    controller,
    config,
    fleet,
    installDebug: (mux) => {
      const base = '/debug/api_priority_and_fairness';
      mux.get(`${base}/dump_priority_levels`, text(dumpPriorityLevels));
      mux.get(`${base}/dump_queues`, text(dumpQueues));
      if (fleet)
        mux.get(`${base}/dump_fleet`, (_req, res) => {
          res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
          res.end(fleet.dump());
        });
      mux.get(
        `${base}/dump_requests`,
        text((c) => dumpRequests(c))
      );
    },
    filter: {
      controller,
      // Upstream waits at most a quarter of the request timeout (60 s).
      queueWaitMs: options.queueWaitMs ?? 15_000,
      sources: {
        objectCount: (info) => cacheOf(info)?.cache.size,
        watcherCount: (info) => {
          const cacher = cacheOf(info);
          const local = cacher?.cache.listenerCount ?? 0;
          return cacher && fleet ? fleet.watchers(cacher.prefix, local) : local;
        },
      },
    },
  };
}
