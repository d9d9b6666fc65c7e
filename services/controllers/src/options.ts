// Flags of the controllers service (options → complete → validate; config.ts builds from them):
// the kubeconfig, `--controllers` and the leader election flags of kube-controller-manager
// (k8s component-base/config LeaderElectionConfiguration and its defaults).
import {
  InvalidOptionsError,
  derive,
  deriveDuration,
  logLevel,
  loggingFlags,
  parseFlags,
  splitList,
  validateLogLevel,
} from '@orch/component-base/flags';
import type { FlagValues } from '@orch/component-base/flags';
import type { LogLevel } from '@orch/component-base/logs';
import { completeFeatureGates, featureGateFlags } from '@orch/component-base/featuregate';
import type { FeatureGates } from '@orch/component-base/featuregate';
import {
  showHiddenMetricsFlags,
  validateShowHiddenMetricsVersion,
} from '@orch/component-base/metrics';
import { validateControllerNames } from './controller-names.js';

export const controllersFlags = {
  kubeconfig: {
    type: 'string',
    description: "Kubeconfig with the API address and this component's client certificate.",
  },
  controllers: {
    type: 'string',
    default: '*',
    description:
      "Controllers to run: '*' for every one on by default, 'foo' for one, '-foo' to leave one " +
      'out (namespace, garbagecollector, serviceaccount, resourcequota; or their full names).',
  },
  'resource-quota-sync-period': {
    type: 'string',
    default: '5m',
    description:
      'How often the resource quota controller recalculates every quota (upstream --resource-quota-sync-period).',
  },
  'use-service-account-credentials': {
    type: 'string',
    default: 'true',
    description:
      'Each controller acts with its own ServiceAccount token (orch-system/<controller>), bound ' +
      'to its system:controller:<name> role; false: all act with this component certificate.',
  },
  'leader-elect': {
    type: 'string',
    default: 'true',
    description: 'Elect a leader on a Lease before running the controllers, for replicas.',
  },
  'leader-elect-lease-duration': {
    type: 'string',
    default: '15s',
    description: 'How long a standby waits after the last renewal it saw before taking the lease.',
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
    default: 'orch-controller-manager',
    description: 'Name of the Lease.',
  },
  'leader-elect-resource-namespace': {
    type: 'string',
    default: 'orch-system',
    description: 'Namespace of the Lease.',
  },
  ...loggingFlags(),
  ...featureGateFlags(),
  ...showHiddenMetricsFlags(),
} as const;

export type ControllersOptions = FlagValues<typeof controllersFlags>;

export interface LeaderElectionOptions {
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  resourceName: string;
  resourceNamespace: string;
}

export interface CompletedControllersOptions {
  kubeconfig: string;
  controllers: string[];
  useServiceAccountCredentials: boolean;
  leaderElection: LeaderElectionOptions;
  logLevel: LogLevel;
  /** The resource quota controller's full resync period. */
  resourceQuotaSyncMs: number;
  /** --feature-gates: the gates, the warnings to print at start, the flag's errors. */
  featureGates: FeatureGates;
  /** --show-hidden-metrics-for-version ('' when not given). */
  showHiddenMetricsForVersion: string;
  /** Problems found while completing (malformed values), reported by validate. */
  problems: string[];
}

export function parseControllersOptions(argv?: string[]): ControllersOptions {
  return parseFlags('orch-controllers', controllersFlags, argv);
}

function parseBool(text: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw new Error(`invalid boolean ${JSON.stringify(text)}`);
}

export function completeControllersOptions(f: ControllersOptions): CompletedControllersOptions {
  const problems: string[] = [];
  return {
    kubeconfig: f.kubeconfig ?? '',
    controllers: splitList(f.controllers ?? '*'),
    useServiceAccountCredentials: derive(
      problems,
      'use-service-account-credentials',
      () => parseBool(f['use-service-account-credentials'] ?? 'true'),
      true
    ),
    leaderElection: {
      leaderElect: derive(
        problems,
        'leader-elect',
        () => parseBool(f['leader-elect'] ?? 'true'),
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
      resourceName: f['leader-elect-resource-name'] ?? 'orch-controller-manager',
      resourceNamespace: f['leader-elect-resource-namespace'] ?? 'orch-system',
    },
    logLevel: logLevel(f),
    resourceQuotaSyncMs: deriveDuration(
      problems,
      'resource-quota-sync-period',
      f['resource-quota-sync-period'],
      '5m'
    ),
    featureGates: completeFeatureGates(f['feature-gates']),
    showHiddenMetricsForVersion: f['show-hidden-metrics-for-version'] ?? '',
    problems,
  };
}

/** k8s leaderelection.NewLeaderElector's checks (JitterFactor 1.2) and the controllers' names. */
export function validateControllersOptions(o: CompletedControllersOptions): string[] {
  const le = o.leaderElection;
  const errs = [...o.problems];
  if (!o.kubeconfig) errs.push('--kubeconfig is required');
  if (o.problems.length === 0 && !(o.resourceQuotaSyncMs > 0))
    errs.push('--resource-quota-sync-period must be a positive duration (forms like 30s, 5m, 1h)');
  errs.push(...validateControllerNames(o.controllers));
  if (le.leaderElect && o.problems.length === 0) {
    if (le.leaseDurationMs <= le.renewDeadlineMs)
      errs.push('--leader-elect-lease-duration must be greater than --leader-elect-renew-deadline');
    if (le.renewDeadlineMs <= 1.2 * le.retryPeriodMs)
      errs.push(
        '--leader-elect-renew-deadline must be greater than 1.2 × --leader-elect-retry-period'
      );
    if (le.retryPeriodMs < 1) errs.push('--leader-elect-retry-period must be greater than zero');
    if (!le.resourceName) errs.push('--leader-elect-resource-name must not be empty');
    if (!le.resourceNamespace) errs.push('--leader-elect-resource-namespace must not be empty');
  }
  return [
    ...errs,
    ...validateLogLevel(o.logLevel),
    ...o.featureGates.errors,
    ...validateShowHiddenMetricsVersion(o.showHiddenMetricsForVersion),
  ];
}

/** parse → complete → validate; throws InvalidOptionsError with every error. */
export function controllersOptions(argv?: string[]): CompletedControllersOptions {
  const completed = completeControllersOptions(parseControllersOptions(argv));
  const errors = validateControllersOptions(completed);
  if (errors.length) throw new InvalidOptionsError('orch-controllers', errors);
  return completed;
}
