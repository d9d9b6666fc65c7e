// The storage server: the gRPC service over the etcd store, and the leader-elected publisher
// and compactor. The constructor wires; run() serves until its signal.
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { storageProto } from '@orch/proto';
import { builtinResources, storagePrefix } from '@orch/apimachinery/registry';
import { subjectForKey } from '@orch/apimachinery/watch';
import { servingAddress } from '@orch/component-base/flags';
import { grpcServingChecker, startGrpcServer } from '@orch/component-base/grpc-server';
import { startOperationalServer } from '@orch/component-base/operational';
import { Deferred, aborted } from '@orch/component-base/run';
import type { Runnable } from '@orch/component-base/run';
import type { StorageConfig } from './config.js';
import { Compactor } from './etcd3/compactor.js';
import { storageService } from './grpc/storage-service.js';
import { LeaderElector } from './publish/leader.js';
import { Publisher } from './publish/publisher.js';

export class StorageServer implements Runnable {
  readonly elector: LeaderElector;
  readonly registry: Registry;
  readonly #config: StorageConfig;
  readonly #latency: Histogram<'operation' | 'code'>;
  readonly #etcdRevision: Gauge;
  readonly #serving = new Deferred<number>();

  constructor(config: StorageConfig) {
    this.#config = config;
    const { etcd, nats, log, options, registry } = config;
    this.registry = registry;
    this.#latency = new Histogram({
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
    // The publisher's lag in revisions is etcd's revision less the one last published (the
    // replica holding the publisher lease publishes; the others stay at 0).
    this.#etcdRevision = new Gauge({
      name: 'orch_storage_etcd_revision',
      help: "etcd's current revision, as the readiness probe last read it (every 2 s).",
      registers: [registry],
    });
    const publishedRevision = new Gauge({
      name: 'orch_storage_publisher_published_revision',
      help: 'The revision of the last message this replica published to NATS (a change, or progress up to it).',
      registers: [registry],
    });
    const revisionRequests = new Counter({
      name: 'orch_storage_publisher_revision_requests_total',
      help: "Consistent reads' revision requests this replica's publisher received, by whether it answered (answered=false: the gateway reads etcd's revision through storage instead).",
      labelNames: ['answered'] as const,
      registers: [registry],
    });
    const knownSubjects = builtinResources
      .filter((d) => !d.virtual)
      .map((d) => subjectForKey(`${storagePrefix(d)}x`))
      .filter((s): s is string => !!s);
    this.elector = new LeaderElector(etcd, log, {
      identity: options.identity,
      ttlSeconds: options.leaderTtlSeconds,
      newTasks: () => [
        new Publisher(etcd, nats, log, {
          progressIntervalMs: options.progressIntervalMs,
          holdsLease: () => this.elector.holdsLease(),
          onAnnounced: (revision) => config.publishWait.announce(revision),
          // Younger than the publish wait, so that a write answered without an announcement is
          // inside any proof the publisher answers with (publish/publisher.ts).
          answerLagMs: options.publishWaitMs / 2,
          onRevisionRequest: (answered) => revisionRequests.inc({ answered: String(answered) }),
          knownSubjects: [...new Set(knownSubjects)],
          onPublished: (_s, type, revision) => {
            published.inc({ type: type === 'PROGRESS' ? 'progress' : 'change' });
            publishedRevision.set(revision);
          },
        }),
        new Compactor(etcd, log, {
          retentionMs: options.compactionRetentionMs,
          intervalMs: options.compactionIntervalMs,
        }),
      ],
    });
  }

  get serving(): Promise<number> {
    return this.#serving.promise;
  }

  async run(signal: AbortSignal): Promise<void> {
    const { log, options, store, etcd, publishWait } = this.#config;
    try {
      publishWait.start();
      const grpc = await startGrpcServer({
        address: servingAddress(options.serving),
        tls: options.serving.tls,
        services: [
          {
            name: 'orch.storage.v1.Storage',
            definition: storageProto.orch.storage.v1.Storage.service,
            implementation: storageService(store, etcd, this.#latency, signal) as never,
          },
        ],
      });
      // Readiness follows etcd: serving only while etcd answers.
      const probe = async (): Promise<void> => {
        try {
          this.#etcdRevision.set(await store.currentRevision());
          grpc.setServing(true);
        } catch (err) {
          grpc.setServing(false);
          log.warn('etcd is not reachable', { err });
        }
      };
      await probe();
      const probeTimer = setInterval(() => void probe(), 2000);
      this.elector.start();
      const operational = await startOperationalServer({
        component: 'storage',
        options: options.operational,
        registry: this.registry,
        log,
        logLevel: options.logLevel,
        readyz: [grpcServingChecker(grpc)],
        configz: () => options,
      });
      log.info('storage serving', { port: grpc.port, etcd: options.etcdServers });
      this.#serving.resolve(grpc.port);

      await aborted(signal);
      clearInterval(probeTimer);
      grpc.setServing(false);
      await this.elector.stop();
      await grpc.stop();
      publishWait.stop();
      await operational?.close();
    } catch (err) {
      this.#serving.reject(err);
      throw err;
    } finally {
      await this.#config.close();
    }
  }
}
