// The availability controller's writes, on an in-memory storage and watch caches filled by hand:
// a decision made from a copy of the APIService that storage has moved past (the other gateway
// wrote its condition meanwhile) is not written over the newer object, as upstream's UpdateStatus
// of the lister's copy is refused with a conflict; once the cache has the newer object, the
// decision made from it is written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { Logger } from '@orch/component-base/logs';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { WatchCache } from '../cache/watch-cache.js';
import {
  apiServiceStatusStrategy,
  apiServiceStrategy,
} from '../registry/apiregistration/apiservices/strategy.js';
import { Store } from '../registry/store.js';
import { enabledResources } from '../resourceconfig/resource-config.js';
import { AvailableConditionController } from './available-controller.js';

type Obj = Record<string, unknown>;

const registry = new ResourceRegistry(enabledResources(builtinResources, ''));
const def = registry.lookup('apiregistration.orch.io', 'v1', 'apiservices')!;
const name = 'v1.ext.example';
const write = { dryRun: false };
const passed = {
  type: 'Available',
  status: 'True',
  reason: 'Passed',
  message: 'all checks passed',
};

/** A logger that tells each message it is given to `seen`. */
function logger(seen: (msg: string) => void): Logger {
  const l: Logger = {
    debug: seen,
    info: seen,
    warn: seen,
    error: seen,
    child: () => l,
  };
  return l;
}

const availableOf = (o: unknown): Obj | undefined =>
  ((o as { status?: { conditions?: Obj[] } }).status?.conditions ?? []).find(
    (c) => c['type'] === 'Available'
  );

test('a decision made from a stale copy of the APIService is not written over a newer condition', async () => {
  const store = new Store(def, apiServiceStrategy, new MemoryStorage());
  const created = await store.create(
    {},
    {
      apiVersion: 'apiregistration.orch.io/v1',
      kind: 'APIService',
      metadata: { name },
      spec: {
        group: 'ext.example',
        version: 'v1',
        service: { namespace: 'ns', name: 'ext', port: 443 },
        insecureSkipTLSVerify: true,
        groupPriorityMinimum: 100,
        versionPriority: 10,
      },
    },
    write
  );
  // The other gateway found it Available and wrote so; this one's caches have not seen that
  // write yet, nor the Service's EndpointSlice (its stream of them lags).
  const status = store.withStrategy(apiServiceStatusStrategy);
  const newer = await status.update(
    {},
    name,
    (current) => ({ ...current!, status: { conditions: [passed] } }),
    write
  );
  const apiServices = new WatchCache({ prefix: '/registry/apiregistration.orch.io/apiservices/' });
  const services = new WatchCache({ prefix: '/registry/core/services/' });
  const endpointSlices = new WatchCache({ prefix: '/registry/discovery.orch.io/endpointslices/' });
  apiServices.replace([created as Obj], Number(created.metadata.resourceVersion));
  const service = {
    metadata: { namespace: 'ns', name: 'ext' },
    spec: { ports: [{ name: 'https', port: 443 }] },
  };
  services.replace([service], 1);
  endpointSlices.replace([], 1);

  let synced: () => void = () => undefined;
  const log = logger((msg) => {
    if (msg === 'changing APIService availability' || msg.includes('checking again later'))
      synced();
  });
  const once = (): Promise<void> => new Promise((r) => (synced = r));
  const controller = new AvailableConditionController(
    { apiServices, services, endpointSlices },
    store,
    {
      lookups: {
        apiService: (n) => apiServices.get(n),
        service: (ns, n) => services.get(`${ns}/${n}`),
        endpointSlices: () => endpointSlices.list(),
      },
      serviceAddresses: {},
    },
    log
  );
  const stop = new AbortController();
  let sync = once();
  const running = controller.run(stop.signal);
  try {
    await sync;
    const stored = await store.get({}, name, { consistency: 'MOST_RECENT' });
    assert.equal(stored.metadata.resourceVersion, newer.object.metadata.resourceVersion);
    assert.deepEqual(availableOf(stored), availableOf(newer.object), 'the newer condition stays');

    // The cache reaches the newer object (its slices still lag): that decision is written.
    sync = once();
    apiServices.replace([newer.object as Obj], Number(newer.object.metadata.resourceVersion));
    await sync;
    const now = await store.get({}, name, { consistency: 'MOST_RECENT' });
    assert.equal(availableOf(now)?.['reason'], 'EndpointsNotFound');
  } finally {
    stop.abort();
    await running;
  }
});
