// The audit flags (upstream's pkg/server/options/audit.go, the names and defaults of
// kube-apiserver) and what they complete to: the policy and the backends' settings.
import { derive } from '@orch/component-base/flags';
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
      'Strategy for sending audit events. Only "blocking" (each event written before the request goes on) is supported by the log backend.',
  },
  'audit-log-compress': {
    type: 'boolean',
    description: 'If set, the rotated log files will be compressed using gzip.',
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
  log: LogBackendOptions | undefined;
}

function count(problems: string[], flag: string, v: string | undefined): number {
  return derive(
    problems,
    flag,
    () => {
      const n = Number(v ?? '0');
      if (!Number.isInteger(n) || n < 0) throw new Error(`must be a non-negative integer: ${v}`);
      return n;
    },
    0
  );
}

function oneOf<T extends string>(problems: string[], flag: string, v: string, allowed: T[]): T {
  if ((allowed as string[]).includes(v)) return v as T;
  problems.push(`--${flag}: invalid value "${v}": one of ${allowed.join(', ')}`);
  return allowed[0]!;
}

export function completeAuditOptions(f: AuditFlagValues, problems: string[]): AuditOptions {
  const policyFile = f['audit-policy-file'];
  const policy = policyFile
    ? derive(problems, 'audit-policy-file', () => loadPolicyFile(policyFile), undefined)
    : undefined;
  const path = f['audit-log-path'];
  const log: LogBackendOptions | undefined = path
    ? {
        path,
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
  oneOf(problems, 'audit-log-mode', f['audit-log-mode'] ?? 'blocking', ['blocking']);
  return { policy, log };
}
