// The audit flags (upstream's pkg/server/options/audit.go, the names and defaults of
// kube-apiserver) and what they complete to: the policy and the backends' settings.
import { derive, deriveDuration } from '@orch/component-base/flags';
import type { AuditMode } from './backends/backend.js';
import type { BatchOptions } from './backends/buffered.js';
import type { TruncateOptions } from './backends/truncate.js';
import type { LogBackendOptions } from './backends/log.js';
import { loadPolicyFile } from './policy/load.js';
import type { Policy } from './policy/types.js';

export const auditFlags = {
  'audit-policy-file': {
    type: 'string',
    description:
      'Path to the file that defines the audit policy configuration (audit.orch.io/v1 Policy, YAML or JSON). Without it, --audit-log-path writes one Metadata event per request at ResponseComplete.',
  },
  'audit-log-path': {
    type: 'string',
    description:
      'If set, all requests coming to the apiserver will be logged to this file. "-" means standard out.',
  },
  'audit-log-maxage': {
    type: 'string',
    default: '0',
    description:
      'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename (0: no limit).',
  },
  'audit-log-maxbackup': {
    type: 'string',
    default: '0',
    description: 'The maximum number of old audit log files to retain (0: no limit).',
  },
  'audit-log-maxsize': {
    type: 'string',
    default: '0',
    description:
      'The maximum size in megabytes of the audit log file before it gets rotated (0: never rotated).',
  },
  'audit-log-format': {
    type: 'string',
    default: 'json',
    description:
      'Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format.',
  },
  'audit-log-mode': {
    type: 'string',
    default: 'blocking',
    description:
      'Strategy for sending audit events. Blocking indicates sending events should block server responses. Blocking-strict is the same as blocking, but when there is a failure during the audit logging at the RequestReceived stage, the whole request to the apiserver will fail. Known modes are blocking,blocking-strict ("batch" is not supported by the log backend).',
  },
  'audit-log-truncate-enabled': {
    type: 'boolean',
    description: 'Whether event and batch truncating is enabled.',
  },
  'audit-log-truncate-max-batch-size': {
    type: 'string',
    default: '10485760',
    description:
      'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.',
  },
  'audit-log-truncate-max-event-size': {
    type: 'string',
    default: '102400',
    description:
      'Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this does not reduce the size enough, event is discarded.',
  },
  'audit-log-compress': {
    type: 'boolean',
    description: 'If set, the rotated log files will be compressed using gzip.',
  },
  'audit-webhook-config-file': {
    type: 'string',
    description:
      'Path to a kubeconfig formatted file that defines the audit webhook configuration (events POSTed as audit.orch.io/v1 EventList).',
  },
  'audit-webhook-mode': {
    type: 'string',
    default: 'batch',
    description:
      'Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Blocking-strict is the same as blocking, but when there is a failure during the audit logging at the RequestReceived stage, the whole request to the apiserver will fail. Known modes are batch,blocking,blocking-strict.',
  },
  'audit-webhook-truncate-enabled': {
    type: 'boolean',
    description: 'Whether event and batch truncating is enabled.',
  },
  'audit-webhook-truncate-max-batch-size': {
    type: 'string',
    default: '10485760',
    description:
      'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.',
  },
  'audit-webhook-truncate-max-event-size': {
    type: 'string',
    default: '102400',
    description:
      'Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this does not reduce the size enough, event is discarded.',
  },
  'audit-webhook-batch-buffer-size': {
    type: 'string',
    default: '10000',
    description: 'The size of the buffer to store events before batching and writing.',
  },
  'audit-webhook-batch-max-size': {
    type: 'string',
    default: '400',
    description: 'The maximum size of a batch.',
  },
  'audit-webhook-batch-max-wait': {
    type: 'string',
    default: '30s',
    description:
      "The amount of time to wait before force writing the batch that hadn't reached the max size.",
  },
  'audit-webhook-batch-throttle-enable': {
    type: 'string',
    default: 'true',
    description: 'Whether batching throttling is enabled.',
  },
  'audit-webhook-batch-throttle-qps': {
    type: 'string',
    default: '10',
    description: 'Maximum average number of batches per second.',
  },
  'audit-webhook-batch-throttle-burst': {
    type: 'string',
    default: '15',
    description:
      'Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before.',
  },
  'audit-webhook-initial-backoff': {
    type: 'string',
    default: '10s',
    description: 'The amount of time to wait before retrying the first failed request.',
  },
} as const;

type AuditFlagValues = {
  [K in keyof typeof auditFlags]?: (typeof auditFlags)[K] extends { type: 'boolean' }
    ? boolean
    : string;
};

export interface AuditOptions {
  /** --audit-policy-file, loaded; undefined: the fixed Metadata policy. */
  policy: Policy | undefined;
  log: (LogBackendOptions & { strict: boolean; truncate: TruncateOptions | undefined }) | undefined;
  webhook: WebhookOptions | undefined;
}

export interface WebhookOptions {
  configFile: string;
  initialBackoffMs: number;
  mode: AuditMode;
  batch: BatchOptions;
  truncate: TruncateOptions | undefined;
}

function count(problems: string[], flag: string, v: string | undefined, min = 0): number {
  return derive(
    problems,
    flag,
    () => {
      const n = Number(v ?? '0');
      if (!Number.isInteger(n) || n < min) throw new Error(`must be an integer >= ${min}: ${v}`);
      return n;
    },
    min
  );
}

function positive(problems: string[], flag: string, v: string | undefined): number {
  const n = Number(v);
  if (Number.isFinite(n) && n > 0) return n;
  problems.push(`--${flag}: must be a positive number: ${v}`);
  return 1;
}

function oneOf<T extends string>(problems: string[], flag: string, v: string, allowed: T[]): T {
  if ((allowed as string[]).includes(v)) return v as T;
  problems.push(`--${flag}: invalid value "${v}": one of ${allowed.join(', ')}`);
  return allowed[0]!;
}

/** --audit-<backend>-truncate-*: undefined unless enabled. */
function truncateOptions(
  problems: string[],
  backend: 'log' | 'webhook',
  f: AuditFlagValues
): TruncateOptions | undefined {
  if (!f[`audit-${backend}-truncate-enabled`]) return undefined;
  const batch = `audit-${backend}-truncate-max-batch-size` as const;
  const event = `audit-${backend}-truncate-max-event-size` as const;
  const o = {
    maxBatchSize: count(problems, batch, f[batch] ?? '10485760', 1),
    maxEventSize: count(problems, event, f[event] ?? '102400', 1),
  };
  if (o.maxEventSize > o.maxBatchSize)
    problems.push(`--${event}: must not be greater than --${batch}`);
  return o;
}

export function completeAuditOptions(f: AuditFlagValues, problems: string[]): AuditOptions {
  const policyFile = f['audit-policy-file'];
  const policy = policyFile
    ? derive(problems, 'audit-policy-file', () => loadPolicyFile(policyFile), undefined)
    : undefined;
  const path = f['audit-log-path'];
  const logMode = oneOf(problems, 'audit-log-mode', f['audit-log-mode'] ?? 'blocking', [
    'blocking',
    'blocking-strict',
  ]);
  const log: AuditOptions['log'] = path
    ? {
        path,
        strict: logMode === 'blocking-strict',
        truncate: truncateOptions(problems, 'log', f),
        format: oneOf(problems, 'audit-log-format', f['audit-log-format'] ?? 'json', [
          'json',
          'legacy',
        ]),
        maxAgeDays: count(problems, 'audit-log-maxage', f['audit-log-maxage']),
        maxBackups: count(problems, 'audit-log-maxbackup', f['audit-log-maxbackup']),
        maxSizeMb: count(problems, 'audit-log-maxsize', f['audit-log-maxsize']),
        compress: f['audit-log-compress'] ?? false,
      }
    : undefined;
  const configFile = f['audit-webhook-config-file'];
  const webhookMode = oneOf(problems, 'audit-webhook-mode', f['audit-webhook-mode'] ?? 'batch', [
    'batch',
    'blocking',
    'blocking-strict',
  ]);
  const webhook: WebhookOptions | undefined = configFile
    ? {
        configFile,
        mode: webhookMode,
        truncate: truncateOptions(problems, 'webhook', f),
        initialBackoffMs: deriveDuration(
          problems,
          'audit-webhook-initial-backoff',
          f['audit-webhook-initial-backoff'],
          '10s'
        ),
        batch: {
          bufferSize: count(
            problems,
            'audit-webhook-batch-buffer-size',
            f['audit-webhook-batch-buffer-size'],
            1
          ),
          maxBatchSize: count(
            problems,
            'audit-webhook-batch-max-size',
            f['audit-webhook-batch-max-size'],
            1
          ),
          maxBatchWaitMs: deriveDuration(
            problems,
            'audit-webhook-batch-max-wait',
            f['audit-webhook-batch-max-wait'],
            '30s'
          ),
          throttleEnable:
            oneOf(
              problems,
              'audit-webhook-batch-throttle-enable',
              f['audit-webhook-batch-throttle-enable'] ?? 'true',
              ['true', 'false']
            ) === 'true',
          throttleQps: positive(
            problems,
            'audit-webhook-batch-throttle-qps',
            f['audit-webhook-batch-throttle-qps']
          ),
          throttleBurst: count(
            problems,
            'audit-webhook-batch-throttle-burst',
            f['audit-webhook-batch-throttle-burst'],
            1
          ),
        },
      }
    : undefined;
  return { policy, log, webhook };
}
