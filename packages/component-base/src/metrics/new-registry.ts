// A service's Prometheus registry (served by the operational server or the gateway's /metrics).
import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * How often the event loop's delay is sampled for `nodejs_eventloop_lag_*`, in milliseconds.
 * prom-client's default, 10, wakes the process about 200 times a second however idle it is:
 * about 7 ms of CPU a second in each process, most of an idle service's cost. Every 100 ms
 * still gives hundreds of samples per scrape.
 */
export const eventLoopSampleMs = 100;

/** Node's default process metrics (`process_*`, `nodejs_*`) in `registry`. */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: eventLoopSampleMs });
}

export function newRegistry(component: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ component });
  collectProcessMetrics(registry);
  return registry;
}
