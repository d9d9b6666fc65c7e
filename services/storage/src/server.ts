// The storage server: etcd store + gRPC service + leader-elected publisher and compactor.
import { Etcd3 } from 'etcd3';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { channelOptions, storageProto } from '@orch/proto';
import { builtinResources, storagePrefix } from '@orch/apimachinery/registry';
import { subjectForKey } from '@orch/apimachinery/watch';
import { startGrpcServer } from '@orch/component-base/grpc-server';
import type { GrpcServer } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import { newRegistry, serveMetrics } from '@orch/component-base/metrics';
import type { StorageConfig } from './options.js';
import { EtcdStore } from './etcd3/store.js';
import { Compactor } from './etcd3/compactor.js';
import { storageService } from './grpc/storage-service.js';
import { LeaderElector } from './publish/leader.js';
import { Publisher } from './publish/publisher.js';

export interface StorageServer {
  port: number;
  elector: LeaderElector;
  registry: Registry;
  stop(): Promise<void>;
}

export async function startStorageServer(config: StorageConfig, log: Logger): Promise<StorageServer> {
  const registry = newRegistry('storage');
  const etcd = new Etcd3({ hosts: config.etcdServers, grpcOptions: { ...channelOptions, 'grpc.max_receive_message_length': 64 * 1024 * 1024 } });
  const nats: NatsConnection = await connect({ servers: config.natsUrls, maxReconnectAttempts: -1, name: `orch-storage ${config.identity}` });
  const store = new EtcdStore(etcd, { maxObjectBytes: config.maxObjectBytes });
  const latency = new Histogram({
    name: 'orch_storage_request_duration_seconds',
    help: 'Storage request latency by operation and gRPC code.',
    labelNames: ['operation', 'code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const published = new Counter({
    name: 'orch_storage_published_messages_total',
    help: 'Messages published to NATS by type (change or progress).',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  const knownSubjects = builtinResources.filter((d) => !d.virtual).map((d) => subjectForKey(`${storagePrefix(d)}x`)).filter((s): s is string => !!s);
  const elector = new LeaderElector(etcd, log, {
    identity: config.identity,
    ttlSeconds: config.leaderTtlSeconds,
    newTasks: () => [
      new Publisher(etcd, nats, log, {
        progressIntervalMs: config.progressIntervalMs,
        knownSubjects: [...new Set(knownSubjects)],
        onPublished: (_s, m) => published.inc({ type: m.type === 'PROGRESS' ? 'progress' : 'change' }),
      }),
      new Compactor(etcd, log, { retentionMs: config.compactionRetentionMs, intervalMs: config.compactionIntervalMs }),
    ],
  });

  const grpc: GrpcServer = await startGrpcServer({
    address: config.address,
    tls: config.tls,
    services: [{ name: 'orch.storage.v1.Storage', definition: storageProto.orch.storage.v1.Storage.service, implementation: storageService(store, etcd, latency) as never }],
  });
  // Readiness follows etcd: serving only while etcd answers.
  const probe = async (): Promise<void> => {
    try {
      await store.currentRevision();
      grpc.setServing(true);
    } catch (err) {
      grpc.setServing(false);
      log.warn('etcd is not reachable', { err });
    }
  };
  await probe();
  const probeTimer = setInterval(() => void probe(), 2000);
  elector.start();
  const metricsServer = config.metricsPort ? await serveMetrics(registry, '127.0.0.1', config.metricsPort) : undefined;
  log.info('storage serving', { port: grpc.port, etcd: config.etcdServers });
  return {
    port: grpc.port,
    elector,
    registry,
    async stop() {
      clearInterval(probeTimer);
      grpc.setServing(false);
      await elector.stop();
      await grpc.stop();
      metricsServer?.close();
      await nats.drain().catch(() => undefined);
      etcd.close();
    },
  };
}
