// The authorizer server: RBAC objects in memory from informers, the bootstrap policy, the
// aggregation of cluster roles, and the gRPC service (mutual TLS, grpc health, metrics).
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { authorizerProto } from '@orch/proto';
import { StorageClient } from '@orch/apimachinery/grpc';
import { clientCredentials, startGrpcServer } from '@orch/component-base/grpc-server';
import type { GrpcServer } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import { newRegistry, serveMetrics } from '@orch/component-base/metrics';
import { reconcilePolicy } from './bootstrap/reconcile-policy.js';
import { authorizerService } from './grpc/authorizer-service.js';
import { alwaysAllow, alwaysDeny } from './modes/always.js';
import { mastersGroup, privilegedGroups } from './modes/privileged-groups.js';
import type { AuthorizerConfig } from './options.js';
import { ClusterRoleAggregator } from './rbac/aggregation.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { InformerSource } from './rbac/informer-source.js';
import type { Authorizer, Role } from './rbac/types.js';
import { union } from './union.js';

export interface AuthorizerServer {
  port: number;
  registry: Registry;
  stop(): Promise<void>;
}

export async function startAuthorizerServer(config: AuthorizerConfig, log: Logger): Promise<AuthorizerServer> {
  const registry = newRegistry('authorizer');
  const latency = new Histogram({
    name: 'orch_authorizer_request_duration_seconds',
    help: 'Authorizer request latency by RPC and gRPC code.',
    labelNames: ['rpc', 'code'] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    registers: [registry],
  });
  const decisions = new Counter({
    name: 'orch_authorizer_decisions_total',
    help: 'Authorization decisions by outcome.',
    labelNames: ['decision'] as const,
    registers: [registry],
  });

  let authorizer: Authorizer;
  let storage: StorageClient | undefined;
  let nats: NatsConnection | undefined;
  let source: InformerSource | undefined;
  let aggregator: ClusterRoleAggregator | undefined;
  if (config.mode === 'RBAC') {
    storage = new StorageClient({ address: config.storageAddress, credentials: clientCredentials(config.tls) });
    nats = await connect({ servers: config.natsUrls, maxReconnectAttempts: -1, name: 'orch-authorizer' });
    const src = new InformerSource(storage, nats, log.child({ component: 'informer' }));
    source = src;
    aggregator = new ClusterRoleAggregator(() => src.clusterRoles.list() as unknown as Role[], storage, log);
    const agg = aggregator;
    src.clusterRoles.addEventHandler({ onAdd: () => agg.schedule(), onUpdate: () => agg.schedule(), onDelete: () => agg.schedule() });
    authorizer = union(privilegedGroups([mastersGroup]), new RbacAuthorizer(src));
  } else {
    authorizer = config.mode === 'AlwaysAllow' ? alwaysAllow : alwaysDeny;
  }

  let ready = false;
  const grpc: GrpcServer = await startGrpcServer({
    address: config.address,
    tls: config.tls,
    services: [
      {
        name: 'orch.authz.v1.Authorizer',
        definition: authorizerProto.orch.authz.v1.Authorizer.service,
        implementation: authorizerService(authorizer, { latency, decisions }, () => ready, () => source?.revisions() ?? {}) as never,
      },
    ],
  });

  if (source && storage) {
    // Serving once the caches are synced: a decision on a partial cache could deny wrongly.
    await source.start();
    if (config.bootstrapPolicy) {
      for (let attempt = 0; ; attempt++) {
        try {
          await reconcilePolicy(storage, log);
          break;
        } catch (err) {
          if (attempt >= 30) throw err;
          log.warn('could not reconcile the bootstrap policy; retrying', { err: String(err) });
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    }
    aggregator?.schedule();
  }
  ready = true;
  grpc.setServing(true);
  const metricsServer = config.metricsPort ? await serveMetrics(registry, '127.0.0.1', config.metricsPort) : undefined;
  log.info('authorizer serving', { port: grpc.port, mode: config.mode });

  return {
    port: grpc.port,
    registry,
    async stop() {
      grpc.setServing(false);
      aggregator?.stop();
      source?.stop();
      await grpc.stop();
      metricsServer?.close();
      await nats?.drain().catch(() => undefined);
      storage?.close();
    },
  };
}
