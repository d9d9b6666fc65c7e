// The objects the aggregation proxy reads (APIServices, Services, EndpointSlices), from the
// gateway's watch caches. The caches are required (/readyz waits for them), so a ready gateway
// does not answer a proxied group from its own handlers.
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { Cachers } from '../cache/cachers.js';
import type { AvailableControllerSources } from './available-controller.js';
import type { AggregatorLookups } from './proxy.js';

type Obj = Record<string, unknown>;

export function cacherLookups(
  registry: ResourceRegistry,
  cachers: Cachers
):
  | { lookups: AggregatorLookups; caches: AvailableControllerSources; start: () => void }
  | undefined {
  const apiServices = registry.lookup('apiregistration.orch.io', 'v1', 'apiservices');
  const services = registry.lookup('', 'v1', 'services');
  const slices = registry.lookup('discovery.orch.io', 'v1', 'endpointslices');
  if (!apiServices || !services || !slices) return undefined;
  const caches = [apiServices, services, slices].map((d) => cachers.for(d));
  const [a, s, e] = caches.map((c) => c.cache);
  return {
    caches: { apiServices: a!, services: s!, endpointSlices: e! },
    lookups: {
      apiService: (name) => a!.get(name) as Obj | undefined,
      service: (ns, name) => s!.get(`${ns}/${name}`) as Obj | undefined,
      endpointSlices: (ns, name) =>
        (e!.list() as Obj[]).filter((o) => {
          const meta = (o['metadata'] ?? {}) as { namespace?: string; labels?: Obj };
          return meta.namespace === ns && meta.labels?.['kubernetes.io/service-name'] === name;
        }),
    },
    start: () => {
      for (const c of caches) c.start({ required: true });
    },
  };
}
