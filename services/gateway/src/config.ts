// The gateway's dependencies, built from its completed options: the resource registry and
// schema model, the storage client (timed), the NATS connection and the watch caches over it
// (one per stored type, started on first use), the metrics, the authorizer. Nothing listens yet (server.ts wires, run() serves).
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { AdmissionClient, CertificatesClient, StorageClient } from '@orch/apimachinery/grpc';
import { ResourceRegistry } from '@orch/apimachinery/registry';
import { builtinSchemaModel } from '@orch/apimachinery/schema-model';
import { consistentListFromCache, registerFeatureMetrics } from '@orch/component-base/featuregate';
import { HealthClient, clientCredentials } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import { authorizationFor } from './authz/authorization-for.js';
import type { Authorization } from './authz/authorization-for.js';
import { GatewayMetrics } from './metrics/gateway-metrics.js';
import type { ValidGatewayOptions } from './options.js';
import { registerCacheMetrics } from './cache/cache-metrics.js';
import { registerNatsMetrics } from './metrics/nats-metrics.js';
import type { CacheHooks } from './cache/cacher.js';
import { Cachers } from './cache/cachers.js';

export interface GatewayConfig {
  options: ValidGatewayOptions;
  log: Logger;
  registry: ResourceRegistry;
  /** The storage client itself (health checks, current revision). */
  rawStorage: StorageClient;
  /** The storage client with its calls timed in the metrics (the stores use it). */
  storage: StorageClient;
  nats: NatsConnection;
  /** The watch caches: watches, and reads that allow it, are served from them. */
  cachers: Cachers;
  metrics: GatewayMetrics;
  authz: Authorization;
  /** The admission service (--admission-servers): its client and its grpc health, for /readyz. */
  admission?: { client: AdmissionClient; health: HealthClient };
  /** The certificates service (--certificates-servers): its client and its grpc health. */
  certificates?: { client: CertificatesClient; health: HealthClient };
  close(): Promise<void>;
}

export async function newGatewayConfig(
  options: ValidGatewayOptions,
  log: Logger,
  hooks: CacheHooks = {}
): Promise<GatewayConfig> {
  // The built-in kinds --runtime-config leaves on: discovery, OpenAPI and routes all read it.
  const registry = new ResourceRegistry(options.resources);
  // One schema source: the kinds of proto/orch/api compiled once, at start (field validation,
  // the binary envelope, tables, strategic merge patch and OpenAPI read it).
  builtinSchemaModel();
  const rawStorage = new StorageClient({
    address: options.storageAddress,
    credentials: clientCredentials(options.grpcTls),
    timeoutMs: options.storageTimeoutMs,
  });
  const nats = await connect({
    servers: options.natsUrls,
    maxReconnectAttempts: -1,
    name: 'orch-gateway',
  });
  // The metrics read the caches' watch count when scraped, after they exist.
  const metrics = new GatewayMetrics((): number => cachers.openWatchCount());
  const cacheMetrics = registerCacheMetrics(metrics.registry, () => cachers);
  registerFeatureMetrics(metrics.registry, options.featureGates.gate);
  registerNatsMetrics(metrics.registry, () => nats);
  const storage = metrics.timeStorage(rawStorage);
  const cachers: Cachers = new Cachers({
    storage,
    nats,
    log,
    currentRevision: () => storage.currentRevision(),
    consistentListFromCache: options.featureGates.gate.enabled(consistentListFromCache),
    hooks: {
      ...hooks,
      onFanout: (n) => {
        metrics.watchEvents.inc(n);
        hooks.onFanout?.(n);
      },
      onGapRepaired: (n) => {
        metrics.gapsRepaired.inc();
        hooks.onGapRepaired?.(n);
      },
      onConsistentRead: (resource, fromCache) => {
        cacheMetrics.consistentReads.inc({
          resource,
          success: 'true',
          fallback: fromCache ? 'false' : 'true',
        });
        hooks.onConsistentRead?.(resource, fromCache);
      },
      onReadWait: (resource, seconds) => {
        cacheMetrics.readWait.observe({ resource }, seconds);
        hooks.onReadWait?.(resource, seconds);
      },
      onRevisionRead: (source, seconds) => {
        cacheMetrics.revisionRead.observe({ source }, seconds);
        hooks.onRevisionRead?.(source, seconds);
      },
    },
  });
  const authz = authorizationFor(options.authorizationMode, {
    address: options.authorizerAddress,
    credentials: () => clientCredentials(options.grpcTls),
    cache: options.authorizationCache,
    metrics,
  });
  const admissionClient = options.admissionAddress
    ? new AdmissionClient({
        address: options.admissionAddress,
        credentials: clientCredentials(options.grpcTls),
        timeoutMs: options.admissionTimeoutMs,
      })
    : undefined;
  // Readiness asks over the Admit calls' own connection: after an outage a check on a channel
  // of its own said ready while the calls still failed, waiting out their reconnect backoff.
  const admission =
    options.admissionAddress && admissionClient
      ? {
          client: admissionClient,
          health: new HealthClient(options.admissionAddress, clientCredentials(options.grpcTls), {
            channelOverride: admissionClient.channel,
          }),
        }
      : undefined;
  const certificatesClient = options.certificatesAddress
    ? new CertificatesClient({
        address: options.certificatesAddress,
        credentials: clientCredentials(options.grpcTls),
      })
    : undefined;
  const certificates = certificatesClient
    ? {
        client: certificatesClient,
        health: new HealthClient(options.certificatesAddress, clientCredentials(options.grpcTls), {
          channelOverride: certificatesClient.channel,
        }),
      }
    : undefined;
  return {
    options,
    log,
    registry,
    rawStorage,
    storage,
    nats,
    cachers,
    metrics,
    authz,
    ...(admission ? { admission } : {}),
    ...(certificates ? { certificates } : {}),
    async close() {
      certificates?.client.close();
      certificates?.health.close();
      admission?.client.close();
      admission?.health.close();
      cachers.stop();
      await nats.drain().catch(() => undefined);
      rawStorage.close();
      authz.close();
    },
  };
}
