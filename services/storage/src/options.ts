// Flags of the storage service (options → complete → validate; config.ts builds from them).
import { hostname } from 'node:os';
import {
  InvalidOptionsError,
  derive,
  deriveDuration,
  logLevel,
  loggingFlags,
  natsFlags,
  natsUrls,
  parseFlags,
  secureServingFlags,
  secureServingOptions,
  splitList,
  validateLogLevel,
  validateNatsUrls,
  validateSecureServing,
} from '@orch/component-base/flags';
import {
  operationalBesideFlags,
  operationalOptionsBeside,
  validateOperational,
} from '@orch/component-base/operational';
import type { OperationalOptions } from '@orch/component-base/operational';
import type { FlagValues, SecureServingOptions } from '@orch/component-base/flags';
import type { LogLevel } from '@orch/component-base/logs';
import { completeFeatureGates, featureGateFlags } from '@orch/component-base/featuregate';
import type { FeatureGates } from '@orch/component-base/featuregate';
import {
  showHiddenMetricsFlags,
  validateShowHiddenMetricsVersion,
} from '@orch/component-base/metrics';

export const storageFlags = {
  'etcd-servers': {
    type: 'string',
    default: 'http://127.0.0.1:2379',
    description: 'Comma-separated etcd client URLs.',
  },
  ...natsFlags(),
  ...secureServingFlags({ port: '6501', server: 'gRPC server' }),
  ...operationalBesideFlags(),
  'compaction-retention': {
    type: 'string',
    default: '5m',
    description: 'History kept for watch resumes and continue tokens.',
  },
  'compaction-interval': {
    type: 'string',
    default: '1m',
    description: 'How often compaction runs.',
  },
  'progress-interval': {
    type: 'string',
    default: '1s',
    description: 'How often the publisher announces progress (bookmarks).',
  },
  'publish-wait': {
    type: 'string',
    default: '1s',
    description:
      'Longest a write waits for the publisher to announce it before it is answered (consistent reads depend on it; see docs/architecture.md).',
  },
  'leader-elect-ttl': {
    type: 'string',
    default: '5s',
    description: 'Lease of the publisher election; a dead leader is replaced after it.',
  },
  'max-object-size-bytes': {
    type: 'string',
    default: '1556480',
    description: 'Largest object stored (etcd accepts 1.5 MiB requests by default).',
  },
  identity: {
    type: 'string',
    default: `${hostname()}-${process.pid}`,
    description: 'Name of this replica in the publisher election.',
  },
  ...loggingFlags(),
  ...featureGateFlags(),
  ...showHiddenMetricsFlags(),
} as const;

/** The raw flag values. */
export type StorageOptions = FlagValues<typeof storageFlags>;

/** Defaults filled and values derived; `problems` are derivations that failed (see validate). */
export interface CompletedStorageOptions {
  etcdServers: string[];
  natsUrls: string[];
  serving: SecureServingOptions;
  /** The operational server: metrics, health, profiling, the log level. */
  operational: OperationalOptions;
  compactionRetentionMs: number;
  compactionIntervalMs: number;
  progressIntervalMs: number;
  publishWaitMs: number;
  leaderTtlSeconds: number;
  maxObjectBytes: number;
  identity: string;
  logLevel: LogLevel;
  /** --feature-gates: the gates, the warnings to print at start, the flag's errors. */
  featureGates: FeatureGates;
  /** --show-hidden-metrics-for-version ('' when not given). */
  showHiddenMetricsForVersion: string;
  problems: string[];
}

export function parseStorageOptions(argv?: string[]): StorageOptions {
  return parseFlags('orch-storage', storageFlags, argv);
}

export function completeStorageOptions(f: StorageOptions): CompletedStorageOptions {
  const problems: string[] = [];
  const duration = (flag: keyof StorageOptions & string, fallback: string): number =>
    deriveDuration(problems, flag, f[flag] as string | undefined, fallback);
  const leaderTtlMs = duration('leader-elect-ttl', '5s');
  return {
    etcdServers: splitList(f['etcd-servers']),
    natsUrls: natsUrls(f),
    serving: secureServingOptions(f),
    operational: operationalOptionsBeside(f, secureServingOptions(f).tls),
    compactionRetentionMs: duration('compaction-retention', '5m'),
    compactionIntervalMs: duration('compaction-interval', '1m'),
    progressIntervalMs: duration('progress-interval', '1s'),
    publishWaitMs: duration('publish-wait', '1s'),
    leaderTtlSeconds: Math.max(1, Math.round(leaderTtlMs / 1000)),
    maxObjectBytes: derive(
      problems,
      'max-object-size-bytes',
      () => positiveInteger(f['max-object-size-bytes']),
      0
    ),
    identity: f['identity'] ?? 'storage',
    logLevel: logLevel(f),
    featureGates: completeFeatureGates(f['feature-gates']),
    showHiddenMetricsForVersion: f['show-hidden-metrics-for-version'] ?? '',
    problems,
  };
}

/** Every error at once. */
export function validateStorageOptions(o: CompletedStorageOptions): string[] {
  return [
    ...o.problems,
    ...(o.etcdServers.length ? [] : ['--etcd-servers must name at least one etcd URL']),
    ...validateNatsUrls(o.natsUrls),
    ...validateSecureServing(o.serving),
    ...validateOperational(o.operational, 'operational-secure-port'),
    ...validateLogLevel(o.logLevel),
    ...(o.publishWaitMs >= 200 ? [] : ['--publish-wait must be at least 200ms']),
    ...o.featureGates.errors,
    ...validateShowHiddenMetricsVersion(o.showHiddenMetricsForVersion),
  ];
}

/** parse → complete → validate; throws InvalidOptionsError with every error. */
export function storageOptions(argv?: string[]): CompletedStorageOptions {
  const completed = completeStorageOptions(parseStorageOptions(argv));
  const errors = validateStorageOptions(completed);
  if (errors.length) throw new InvalidOptionsError('orch-storage', errors);
  return completed;
}

function positiveInteger(text: string | undefined): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) {
    throw new Error(`not a positive integer: ${JSON.stringify(text)}`);
  }
  return n;
}
