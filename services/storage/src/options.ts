// Flags of the storage service → a validated config.
import { hostname } from 'node:os';
import { parseDuration, parseFlags } from '@orch/component-base/flags';
import type { TlsFiles } from '@orch/component-base/grpc-server';

export const storageFlags = {
  'etcd-servers': { type: 'string', default: 'http://127.0.0.1:2379', description: 'Comma-separated etcd client URLs.' },
  'nats-url': { type: 'string', default: 'nats://127.0.0.1:4222', description: 'NATS server URL(s), comma-separated.' },
  'bind-address': { type: 'string', default: '127.0.0.1', description: 'Address the gRPC server listens on.' },
  'secure-port': { type: 'string', default: '6501', description: 'gRPC port (0 picks a free one).' },
  'metrics-port': { type: 'string', default: '0', description: 'Port of the Prometheus /metrics endpoint (0: off).' },
  'tls-cert-file': { type: 'string', description: 'Serving certificate (mutual TLS).' },
  'tls-private-key-file': { type: 'string', description: 'Key of the serving certificate.' },
  'client-ca-file': { type: 'string', description: 'CA that client certificates must chain to.' },
  'compaction-retention': { type: 'string', default: '5m', description: 'History kept for watch resumes and continue tokens.' },
  'compaction-interval': { type: 'string', default: '1m', description: 'How often compaction runs.' },
  'progress-interval': { type: 'string', default: '1s', description: 'How often the publisher announces progress (bookmarks).' },
  'leader-elect-ttl': { type: 'string', default: '5s', description: 'Lease of the publisher election; a dead leader is replaced after it.' },
  'max-object-size-bytes': { type: 'string', default: '1556480', description: 'Largest object stored (etcd accepts 1.5 MiB requests by default).' },
  'identity': { type: 'string', default: `${hostname()}-${process.pid}`, description: 'Name of this replica in the publisher election.' },
} as const;

export interface StorageConfig {
  etcdServers: string[];
  natsUrls: string[];
  address: string;
  metricsPort: number;
  tls: TlsFiles | undefined;
  compactionRetentionMs: number;
  compactionIntervalMs: number;
  progressIntervalMs: number;
  leaderTtlSeconds: number;
  maxObjectBytes: number;
  identity: string;
}

export function storageConfig(argv?: string[]): StorageConfig {
  const f = parseFlags('orch-storage', storageFlags, argv);
  const tlsGiven = [f['tls-cert-file'], f['tls-private-key-file'], f['client-ca-file']].filter(Boolean).length;
  if (tlsGiven !== 0 && tlsGiven !== 3) {
    throw new Error('--tls-cert-file, --tls-private-key-file and --client-ca-file go together');
  }
  return {
    etcdServers: (f['etcd-servers'] ?? '').split(',').filter(Boolean),
    natsUrls: (f['nats-url'] ?? '').split(',').filter(Boolean),
    address: `${f['bind-address']}:${f['secure-port']}`,
    metricsPort: Number(f['metrics-port']),
    tls: tlsGiven === 3 ? { certFile: f['tls-cert-file']!, keyFile: f['tls-private-key-file']!, caFile: f['client-ca-file']! } : undefined,
    compactionRetentionMs: parseDuration(f['compaction-retention'] ?? '5m'),
    compactionIntervalMs: parseDuration(f['compaction-interval'] ?? '1m'),
    progressIntervalMs: parseDuration(f['progress-interval'] ?? '1s'),
    leaderTtlSeconds: Math.max(1, Math.round(parseDuration(f['leader-elect-ttl'] ?? '5s') / 1000)),
    maxObjectBytes: Number(f['max-object-size-bytes']),
    identity: f['identity'] ?? 'storage',
  };
}
