// For tests: a storage replica as its own process over a given etcd and NATS, and a client of it.
import { StorageClient } from '@orch/apimachinery/grpc';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { freePort, serviceBundle, spawnBackend } from '@orch/testing';
import type { SpawnedBackend, ThrowawayPki } from '@orch/testing';

export interface TestReplica {
  proc: SpawnedBackend;
  /** A client of this replica alone. */
  client: StorageClient;
  address: string;
}

/** A client of `address` (one replica, or several comma-separated) with the gateway's certificate. */
export function testStorageClient(pki: ThrowawayPki, address: string): StorageClient {
  const gw = pki.file('gateway');
  return new StorageClient({
    address,
    credentials: clientCredentials({
      caFile: pki.caFile,
      certFile: gw.certFile,
      keyFile: gw.keyFile,
    }),
    timeoutMs: 5000,
  });
}

/**
 * The flags of a test replica over `etcdEndpoint` and `natsUrl` with the throwaway PKI's storage
 * certificate, on `port` (0: any), then `more` (intervals, limits).
 */
export function replicaFlags(o: {
  etcdEndpoint: string;
  natsUrl: string;
  pki: ThrowawayPki;
  port: number;
  identity: string;
  more?: readonly string[];
}): string[] {
  const files = o.pki.file('storage');
  return [
    `--etcd-servers=${o.etcdEndpoint}`,
    `--nats-url=${o.natsUrl}`,
    `--secure-port=${o.port}`,
    `--tls-cert-file=${files.certFile}`,
    `--tls-private-key-file=${files.keyFile}`,
    `--client-ca-file=${o.pki.caFile}`,
    `--identity=${o.identity}`,
    ...(o.more ?? []),
  ];
}

/** Starts a replica and waits until it answers; the caller closes the client and kills the process. */
export async function startTestReplica(o: {
  etcdEndpoint: string;
  natsUrl: string;
  pki: ThrowawayPki;
  identity: string;
  leaderElectTtl: string;
  /** --progress-interval, also the checkpoint interval; default 200ms. */
  progressInterval?: string;
}): Promise<TestReplica> {
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const client = testStorageClient(o.pki, address);
  const proc = await spawnBackend({
    name: `storage-${o.identity}`,
    command: process.execPath,
    args: [
      serviceBundle('storage'),
      ...replicaFlags({
        ...o,
        port,
        more: [
          `--progress-interval=${o.progressInterval ?? '200ms'}`,
          `--leader-elect-ttl=${o.leaderElectTtl}`,
        ],
      }),
    ],
    ready: async () =>
      client.currentRevision().then(
        () => true,
        () => false
      ),
    timeoutMs: 20_000,
  }).catch((err: unknown) => {
    client.close();
    throw err;
  });
  return { proc, client, address };
}

/** Whether the replica's log says it was elected publisher. */
export const electedPublisher = (r: TestReplica): boolean =>
  r.proc.output.toString().includes('"elected publisher"');
