// The storage service's dependencies, built from its completed options: the etcd client and
// store, the NATS connection, the metrics registry. Nothing listens yet (server.ts wires,
// run() serves).
import { ConsecutiveBreaker, circuitBreaker, handleWhen, retry } from 'cockatiel';
import { Etcd3, isRecoverableError } from 'etcd3';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { channelOptions } from '@orch/proto';
import type { Logger } from '@orch/component-base/logs';
import { newRegistry } from '@orch/component-base/metrics';
import { registerFeatureMetrics } from '@orch/component-base/featuregate';
import { EtcdStore } from './etcd3/store.js';
import { TxnClient } from './etcd3/txn-client.js';
import { PublishWait } from './publish/publish-wait.js';
import type { CompletedStorageOptions } from './options.js';

export interface StorageConfig {
  options: CompletedStorageOptions;
  log: Logger;
  etcd: Etcd3;
  store: EtcdStore;
  /** What the store's writes wait for: the publisher's announcement of their revision. */
  publishWait: PublishWait;
  nats: NatsConnection;
  registry: Registry;
  /** Closes what the config opened (run() calls it last). */
  close(): Promise<void>;
}

/**
 * How the etcd client rides out an etcd outage. The library's defaults keep a host's circuit
 * open for 5 s after three failures (and again after a failed probe), so a storage replica, and
 * every gateway's readiness with it, could stay unready for 10 s after etcd was back (the chaos
 * test's etcd restart). Go's clientv3, which upstream uses, has no breaker; here it stays, to
 * fail fast while etcd is away, but probes again after 1 s. (The publisher's watch is its own.)
 */
const etcdFaultHandling = {
  host: () =>
    circuitBreaker(handleWhen(isRecoverableError), {
      halfOpenAfter: 1000,
      breaker: new ConsecutiveBreaker(3),
    }),
  global: retry(handleWhen(isRecoverableError), { maxAttempts: 3 }),
};

/**
 * A deadline for each unary etcd call, so that a call sent to a member that is gone without a
 * word (killed, paused, cut off by the network: its address answers nothing) fails after it
 * and the retry above goes to another member, instead of waiting on TCP. Found by the
 * deployment test: with one etcd member of three partitioned, a storage replica let one write
 * through in 6 s. etcd answers a write or a range of thousands of objects in well under it.
 * Streams (watches, lease keep-alives) have none: they end when their connection does.
 */
export const etcdCallTimeoutMs = 5000;

export async function newStorageConfig(
  options: CompletedStorageOptions,
  log: Logger
): Promise<StorageConfig> {
  const etcd = new Etcd3({
    hosts: options.etcdServers,
    grpcOptions: { ...channelOptions, 'grpc.max_receive_message_length': 64 * 1024 * 1024 },
    faultHandling: etcdFaultHandling,
    defaultCallOptions: (call) =>
      call.isStream ? {} : { deadline: Date.now() + etcdCallTimeoutMs },
  });
  const nats = await connect({
    servers: options.natsUrls,
    maxReconnectAttempts: -1,
    name: `orch-storage ${options.identity}`,
  });
  const registry = newRegistry('storage');
  registerFeatureMetrics(registry, options.featureGates.gate);
  const waits = new Histogram({
    name: 'orch_storage_publish_wait_seconds',
    help: 'How long writes waited for the publisher to announce their revision, by whether it did (announced) or the wait ran out (timeout).',
    labelNames: ['outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const txns = new Counter({
    name: 'orch_storage_etcd_txn_total',
    help: "Writes' etcd transactions by the way they went: direct (storage's own HTTP/2 session) or etcd3 (the etcd3 client, when the direct way could not make or finish the call).",
    labelNames: ['path'],
    registers: [registry],
  });
  for (const path of ['direct', 'etcd3']) txns.inc({ path }, 0);
  const txnClient = new TxnClient(etcd, {
    endpoints: options.etcdServers,
    timeoutMs: etcdCallTimeoutMs,
    onCall: (path) => txns.inc({ path }),
  });
  const publishWait = new PublishWait(nats, {
    waitMs: options.publishWaitMs,
    onWait: (seconds, announced) =>
      waits.observe({ outcome: announced ? 'announced' : 'timeout' }, seconds),
  });
  return {
    options,
    log,
    etcd,
    store: new EtcdStore(etcd, {
      maxObjectBytes: options.maxObjectBytes,
      afterWrite: (revision) => publishWait.published(revision),
      txn: (req) => txnClient.txn(req),
    }),
    publishWait,
    nats,
    registry,
    async close() {
      await nats.drain().catch(() => undefined);
      txnClient.close();
      etcd.close();
    },
  };
}
