// The leader election flags of every component that elects a leader (k8s component-base/config
// LeaderElectionConfiguration, BindLeaderElectionFlags, and leaderelection.NewLeaderElector's
// checks): `--leader-elect`, `--leader-elect-lease-duration` 15s, `--leader-elect-renew-deadline`
// 10s, `--leader-elect-retry-period` 2s, `--leader-elect-resource-name`,
// `--leader-elect-resource-namespace`.
import { derive, deriveDuration, mustParseGoBool } from '../flags/index.js';
import type { StringFlags } from '../flags/parse-flags.js';

type LeaderElectionFlag =
  | 'leader-elect'
  | 'leader-elect-lease-duration'
  | 'leader-elect-renew-deadline'
  | 'leader-elect-retry-period'
  | 'leader-elect-resource-name'
  | 'leader-elect-resource-namespace';

export interface LeaderElectionOptions {
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  resourceName: string;
  resourceNamespace: string;
}

/** The flags, with the component's own Lease name and namespace as defaults. */
export function leaderElectionFlags(defaults: {
  resourceName: string;
  resourceNamespace: string;
}): StringFlags<LeaderElectionFlag> {
  return {
    'leader-elect': {
      type: 'string',
      default: 'true',
      description: 'Elect a leader on a Lease before doing the work, for replicas.',
    },
    'leader-elect-lease-duration': {
      type: 'string',
      default: '15s',
      description:
        'How long a standby waits after the last renewal it saw before taking the lease.',
    },
    'leader-elect-renew-deadline': {
      type: 'string',
      default: '10s',
      description: 'How long the leader retries renewing before it gives up leading.',
    },
    'leader-elect-retry-period': {
      type: 'string',
      default: '2s',
      description: 'Pause between attempts to acquire or renew the lease.',
    },
    'leader-elect-resource-name': {
      type: 'string',
      default: defaults.resourceName,
      description: 'Name of the Lease.',
    },
    'leader-elect-resource-namespace': {
      type: 'string',
      default: defaults.resourceNamespace,
      description: 'Namespace of the Lease.',
    },
  } as const;
}

type LeaderElectionFlagValues = Partial<Record<LeaderElectionFlag, string>>;

/** The options from the flags; malformed values are added to `problems`. */
export function completeLeaderElection(
  f: LeaderElectionFlagValues,
  problems: string[],
  defaults: { resourceName: string; resourceNamespace: string }
): LeaderElectionOptions {
  return {
    leaderElect: derive(
      problems,
      'leader-elect',
      () => mustParseGoBool(f['leader-elect'] ?? 'true'),
      true
    ),
    leaseDurationMs: deriveDuration(
      problems,
      'leader-elect-lease-duration',
      f['leader-elect-lease-duration'],
      '15s'
    ),
    renewDeadlineMs: deriveDuration(
      problems,
      'leader-elect-renew-deadline',
      f['leader-elect-renew-deadline'],
      '10s'
    ),
    retryPeriodMs: deriveDuration(
      problems,
      'leader-elect-retry-period',
      f['leader-elect-retry-period'],
      '2s'
    ),
    resourceName: f['leader-elect-resource-name'] ?? defaults.resourceName,
    resourceNamespace: f['leader-elect-resource-namespace'] ?? defaults.resourceNamespace,
  };
}

/** k8s leaderelection.NewLeaderElector's checks (JitterFactor 1.2), when leader election is on. */
export function validateLeaderElection(le: LeaderElectionOptions): string[] {
  if (!le.leaderElect) return [];
  const errs: string[] = [];
  if (le.leaseDurationMs <= le.renewDeadlineMs)
    errs.push('--leader-elect-lease-duration must be greater than --leader-elect-renew-deadline');
  if (le.renewDeadlineMs <= 1.2 * le.retryPeriodMs)
    errs.push(
      '--leader-elect-renew-deadline must be greater than 1.2 × --leader-elect-retry-period'
    );
  if (le.retryPeriodMs < 1) errs.push('--leader-elect-retry-period must be greater than zero');
  if (!le.resourceName) errs.push('--leader-elect-resource-name must not be empty');
  if (!le.resourceNamespace) errs.push('--leader-elect-resource-namespace must not be empty');
  return errs;
}
