// The watch caches' metrics (k8s apiserver_watch_cache_*): objects and events held per type,
// an estimate of the JSON bytes per cached object, relists, consistent reads served from the
// cache or by storage after the wait (apiserver_watch_cache_consistent_read_total), the time reads
// waited for the cache to reach their revision (apiserver_watch_cache_read_wait_seconds), and
// the reads of storage's revision those consistent reads shared.
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { Cachers } from './cachers.js';

export interface CacheMetrics {
  consistentReads: Counter<'resource' | 'success' | 'fallback'>;
  readWait: Histogram<'resource'>;
  revisionRead: Histogram<'source'>;
}

/** Objects sampled per type for the bytes-per-object estimate. */
const sampleSize = 64;

export function registerCacheMetrics(registry: Registry, cachers: () => Cachers): CacheMetrics {
  const consistentReads = new Counter({
    name: 'orch_gateway_watch_cache_consistent_read_total',
    help: 'Consistent reads (no resourceVersion) by resource: served from the watch cache (fallback="false") or by storage after the cache did not reach the revision in time (fallback="true").',
    labelNames: ['resource', 'success', 'fallback'] as const,
    registers: [registry],
  });
  const readWait = new Histogram({
    name: 'orch_gateway_watch_cache_read_wait_seconds',
    help: "Time reads waited for the watch cache to reach their revision (a consistent read's, storage's current one), by resource.",
    labelNames: ['resource'] as const,
    buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3],
    registers: [registry],
  });
  const revisionRead = new Histogram({
    name: 'orch_gateway_watch_cache_revision_read_seconds',
    help: "Time to read the revision consistent reads from the watch caches wait for, by source: the publisher (over NATS) or storage (etcd's, when the publisher gave none).",
    labelNames: ['source'] as const,
    buckets: [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    registers: [registry],
  });
  const perType = (
    name: string,
    help: string,
    value: (c: ReturnType<Cachers['all']>[number]) => number
  ): Gauge<'resource'> =>
    new Gauge({
      name,
      help,
      labelNames: ['resource'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const c of cachers().all()) this.set({ resource: c.prefix }, value(c));
      },
    });
  perType(
    'orch_gateway_watch_cache_objects',
    'Objects held in the watch cache, by type.',
    (c) => c.cache.size
  );
  perType(
    'orch_gateway_watch_cache_events',
    'Recent changes held in the watch cache ring, by type.',
    (c) => c.cache.ringSize
  );
  perType(
    'orch_gateway_watch_cache_resource_version',
    'The revision the watch cache is complete up to, by type.',
    (c) => c.cache.lastRevision
  );
  perType(
    'orch_gateway_watch_cache_relists',
    'Times the watch cache listed again after its first list (history gone), by type.',
    (c) => c.cache.relists
  );
  perType(
    'orch_gateway_watch_cache_object_json_bytes',
    'Estimated JSON bytes per cached object (a sample of the objects encoded), by type.',
    (c) => {
      const sample = c.cache.sample(sampleSize);
      if (sample.length === 0) return 0;
      let bytes = 0;
      for (const o of sample) bytes += Buffer.byteLength(JSON.stringify(o));
      return bytes / sample.length;
    }
  );
  new Counter({
    name: 'orch_gateway_watch_cache_revision_reads_total',
    help: "Reads of the current revision for consistent reads from the watch caches, by source: the publisher (over NATS) or storage (etcd's, when the publisher did not answer). One read answers every consistent read that arrived before it started, so under load this grows slower than the reads.",
    labelNames: ['source'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [source, n] of Object.entries(cachers().revisionSources)) this.inc({ source }, n);
    },
  });
  return { consistentReads, readWait, revisionRead };
}
