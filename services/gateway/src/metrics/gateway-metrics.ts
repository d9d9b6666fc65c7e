// The gateway's Prometheus metrics (named as apiserver_* in k8s, orch_gateway_* here).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { collectProcessMetrics, withStability } from '@orch/component-base/metrics';
import type { Handler } from '../http/handler.js';
import { protocolOf } from '../http/handler.js';
import { requestInfoFrom, startTimeFrom } from '../request/context.js';

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'orch_gateway_request_total',
    help: 'Requests by verb, group, version, resource, subresource, scope and HTTP code.',
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'code'] as const,
    registers: [this.registry],
  });
  readonly requestsByProtocol = new Counter({
    name: 'orch_gateway_requests_by_protocol_total',
    help: 'Requests by the HTTP protocol they came over (HTTP/1.1, HTTP/2.0), counted when answered.',
    labelNames: ['protocol'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'orch_gateway_request_duration_seconds',
    help: 'Request latency by verb, group, version, resource, subresource and scope (watches excluded).',
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly storageLatency = new Histogram({
    name: 'orch_gateway_storage_request_duration_seconds',
    help: 'Latency of calls to the storage service by operation.',
    labelNames: ['operation'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });
  readonly watchEvents = new Counter({
    name: 'orch_gateway_watch_events_fanned_out_total',
    help: 'Changes delivered from NATS to watchers, counted once per watcher.',
    registers: [this.registry],
  });
  readonly gapsRepaired = new Counter({
    name: 'orch_gateway_watch_gaps_repaired_total',
    help: 'Gaps in the NATS change stream repaired from storage history.',
    registers: [this.registry],
  });
  readonly admissionServiceCalls = new Counter({
    name: 'orch_gateway_admission_service_calls_total',
    help: 'Admit calls to the admission service by phase, made or skipped (no plugin of the call can act on the resource).',
    labelNames: ['phase', 'result'] as const,
    registers: [this.registry],
  });
  readonly authorizationCache = new Counter({
    name: 'orch_gateway_authorization_cache_total',
    help: 'Authorization decisions answered from the gateway cache (hit) or by the authorizer service (miss).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  /** Upstream's apiserver_requested_deprecated_apis: 1 for each deprecated API requested. */
  readonly requestedDeprecatedApis = new Gauge(
    withStability(
      {
        name: 'apiserver_requested_deprecated_apis',
        help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
        labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'] as const,
        registers: [this.registry],
      },
      { stabilityLevel: 'STABLE' }
    )
  );
  readonly openWatches: Gauge;

  constructor(openWatches: () => number) {
    collectProcessMetrics(this.registry);
    this.openWatches = new Gauge({
      name: 'orch_gateway_open_watches',
      help: 'Watches currently open on this gateway.',
      registers: [this.registry],
      collect() {
        this.set(openWatches());
      },
    });
  }

  /** Counts and times every request once its response is finished. */
  filter(next: Handler): Handler {
    return (req, res) => {
      res.on('finish', () => {
        const info = requestInfoFrom(req);
        const labels = {
          verb: info?.isResourceRequest ? info.verb.toUpperCase() : (req.method ?? ''),
          group: info?.apiGroup ?? '',
          version: info?.apiVersion ?? '',
          resource: info?.resource ?? '',
          subresource: info?.subresource ?? '',
          scope: !info?.isResourceRequest
            ? ''
            : info.name
              ? 'resource'
              : info.namespace
                ? 'namespace'
                : 'cluster',
        };
        this.requests.inc({ ...labels, code: String(res.statusCode) });
        this.requestsByProtocol.inc({ protocol: protocolOf(req) });
        const started = startTimeFrom(req);
        if (started !== undefined && info?.verb !== 'watch')
          this.latency.observe(labels, (performance.now() - started) / 1000);
      });
      return next(req, res);
    };
  }

  /** Wraps a storage client so that every call is timed. */
  timeStorage<T extends object>(client: T): T {
    const hist = this.storageLatency;
    return new Proxy(client, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function' || prop === 'close') return v;
        return (...args: unknown[]) => {
          const end = hist.startTimer({ operation: String(prop) });
          const out = (v as (...a: unknown[]) => unknown).apply(target, args);
          if (out instanceof Promise) return out.finally(() => end());
          end();
          return out;
        };
      },
    });
  }
}
