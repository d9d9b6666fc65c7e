// A service's Prometheus registry (served by the operational server or the gateway's /metrics).
import { Registry, collectDefaultMetrics } from 'prom-client';

export function newRegistry(component: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ component });
  collectDefaultMetrics({ register: registry });
  return registry;
}
