// Flags of the controllers service (options → complete → validate; config.ts builds from them):
// the kubeconfig, `--controllers` and the leader election flags of kube-controller-manager
// (k8s component-base/config LeaderElectionConfiguration and its defaults).
import {
  InvalidOptionsError,
  derive,
  deriveDuration,
  logLevel,
  loggingFlags,
  mustParseGoBool,
  parseFlags,
  splitList,
  validateLogLevel,
} from '@orch/component-base/flags';
import type { FlagValues } from '@orch/component-base/flags';
import type { LogLevel } from '@orch/component-base/logs';
import {
  completeLeaderElection,
  leaderElectionFlags,
  validateLeaderElection,
} from '@orch/component-base/leaderelection';
import type { LeaderElectionOptions } from '@orch/component-base/leaderelection';
import {
  operationalFlags,
  operationalOptionsServing,
  operationalServingFlags,
  validateOperational,
} from '@orch/component-base/operational';
import type { OperationalOptions } from '@orch/component-base/operational';
import { validateControllerNames } from './controller-names.js';

/** The controllers' Lease (k8s: kube-system/kube-controller-manager). */
const leaseDefaults = { resourceName: 'orch-controller-manager', resourceNamespace: 'orch-system' };

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
  'service-account-private-key-file': {
    type: 'string',
    description:
      'Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account ' +
      'tokens (the tokens of kubernetes.io/service-account-token Secrets); without it the ' +
      'serviceaccount-token controller does not run.',
  },
  'root-ca-file': {
    type: 'string',
    description:
      "If set, this root certificate authority will be included in service account's token " +
      "secret and in every namespace's kube-root-ca.crt ConfigMap. This must be a valid " +
      "PEM-encoded CA bundle (default: the kubeconfig's certificate authority).",
  },
  ...leaderElectionFlags(leaseDefaults),
  ...operationalServingFlags(),
  ...operationalFlags(),
  ...loggingFlags(),
} as const;

export type ControllersOptions = FlagValues<typeof controllersFlags>;

export interface CompletedControllersOptions {
  kubeconfig: string;
  controllers: string[];
  useServiceAccountCredentials: boolean;
  /** --service-account-private-key-file ('' when not given). */
  serviceAccountPrivateKeyFile: string;
  /** --root-ca-file ('' when not given: the kubeconfig's certificate authority). */
  rootCaFile: string;
  leaderElection: LeaderElectionOptions;
  logLevel: LogLevel;
  /** The operational server (metrics, health, profiling, the log level) on --secure-port. */
  operational: OperationalOptions;
  /** The resource quota controller's full resync period. */
  resourceQuotaSyncMs: number;
  /** Problems found while completing (malformed values), reported by validate. */
  problems: string[];
}

export function parseControllersOptions(argv?: string[]): ControllersOptions {
  return parseFlags('orch-controllers', controllersFlags, argv);
}

export function completeControllersOptions(f: ControllersOptions): CompletedControllersOptions {
  const problems: string[] = [];
  return {
    kubeconfig: f.kubeconfig ?? '',
    controllers: splitList(f.controllers ?? '*'),
    useServiceAccountCredentials: derive(
      problems,
      'use-service-account-credentials',
      () => mustParseGoBool(f['use-service-account-credentials'] ?? 'true'),
      true
    ),
    serviceAccountPrivateKeyFile: f['service-account-private-key-file'] ?? '',
    rootCaFile: f['root-ca-file'] ?? '',
    leaderElection: completeLeaderElection(f, problems, leaseDefaults),
    logLevel: logLevel(f),
    operational: operationalOptionsServing(f),
    resourceQuotaSyncMs: deriveDuration(
      problems,
      'resource-quota-sync-period',
      f['resource-quota-sync-period'],
      '5m'
    ),
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
  if (o.problems.length === 0) errs.push(...validateLeaderElection(le));
  errs.push(...validateOperational(o.operational, 'secure-port'));
  return [...errs, ...validateLogLevel(o.logLevel)];
}

/** parse → complete → validate; throws InvalidOptionsError with every error. */
export function controllersOptions(argv?: string[]): CompletedControllersOptions {
  const completed = completeControllersOptions(parseControllersOptions(argv));
  const errors = validateControllersOptions(completed);
  if (errors.length) throw new InvalidOptionsError('orch-controllers', errors);
  return completed;
}
