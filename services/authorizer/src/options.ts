// Flags of the authorizer service (options → complete → validate; config.ts builds from them).
import {
  InvalidOptionsError,
  logLevel,
  loggingFlags,
  natsFlags,
  natsUrls,
  parseFlags,
  secureServingFlags,
  secureServingOptions,
  storageClientFlags,
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

export const authorizationModes = ['RBAC', 'AlwaysAllow', 'AlwaysDeny'] as const;
export type AuthorizationMode = (typeof authorizationModes)[number];

export const authorizerFlags = {
  'authorization-mode': {
    type: 'string',
    default: 'RBAC',
    description: 'RBAC, AlwaysAllow or AlwaysDeny.',
  },
  ...storageClientFlags(),
  ...natsFlags(),
  ...secureServingFlags({
    port: '6502',
    server: 'gRPC server',
    certDescription: 'Serving certificate (mutual TLS); also the client certificate to storage.',
    clientCaDescription:
      'CA that client certificates must chain to (and that storage is verified against).',
  }),
  ...operationalBesideFlags(),
  'bootstrap-policy': {
    type: 'string',
    default: 'true',
    description: 'Reconcile the bootstrap roles and bindings at start.',
  },
  kubeconfig: {
    type: 'string',
    description:
      'Kubeconfig of the public API (a gateway) and the client certificate the authorizer writes ' +
      'the bootstrap policy and aggregated roles with; required with --authorization-mode=RBAC.',
  },
  ...loggingFlags(),
  ...featureGateFlags(),
  ...showHiddenMetricsFlags(),
} as const;

/** The raw flag values. */
export type AuthorizerOptions = FlagValues<typeof authorizerFlags>;

export interface CompletedAuthorizerOptions {
  mode: string;
  storageAddress: string;
  natsUrls: string[];
  serving: SecureServingOptions;
  /** The operational server: metrics, health, profiling, the log level. */
  operational: OperationalOptions;
  bootstrapPolicy: boolean;
  kubeconfig: string | undefined;
  logLevel: LogLevel;
  /** --feature-gates: the gates, the warnings to print at start, the flag's errors. */
  featureGates: FeatureGates;
  /** --show-hidden-metrics-for-version ('' when not given). */
  showHiddenMetricsForVersion: string;
}

export function parseAuthorizerOptions(argv?: string[]): AuthorizerOptions {
  return parseFlags('orch-authorizer', authorizerFlags, argv);
}

export function completeAuthorizerOptions(f: AuthorizerOptions): CompletedAuthorizerOptions {
  return {
    mode: f['authorization-mode'] ?? 'RBAC',
    storageAddress: f['storage-servers'] ?? '',
    natsUrls: natsUrls(f),
    serving: secureServingOptions(f),
    operational: operationalOptionsBeside(f, secureServingOptions(f).tls),
    bootstrapPolicy: f['bootstrap-policy'] !== 'false',
    kubeconfig: f.kubeconfig,
    logLevel: logLevel(f),
    featureGates: completeFeatureGates(f['feature-gates']),
    showHiddenMetricsForVersion: f['show-hidden-metrics-for-version'] ?? '',
  };
}

/** Every error at once. */
export function validateAuthorizerOptions(o: CompletedAuthorizerOptions): string[] {
  const errors: string[] = [];
  if (!(authorizationModes as readonly string[]).includes(o.mode)) {
    errors.push(
      `--authorization-mode must be one of ${authorizationModes.join(', ')}, ` +
        `not ${JSON.stringify(o.mode)}`
    );
  }
  if (o.mode === 'RBAC') {
    if (!o.storageAddress) errors.push('--authorization-mode=RBAC needs --storage-servers');
    errors.push(...validateNatsUrls(o.natsUrls));
    if (!o.kubeconfig) {
      errors.push(
        '--authorization-mode=RBAC needs --kubeconfig: the bootstrap policy and the aggregated ' +
          "roles' rules are written through the public API"
      );
    }
  }
  errors.push(
    ...validateSecureServing(o.serving),
    ...validateOperational(o.operational, 'operational-secure-port'),
    ...validateLogLevel(o.logLevel),
    ...o.featureGates.errors,
    ...validateShowHiddenMetricsVersion(o.showHiddenMetricsForVersion)
  );
  return errors;
}

/** parse → complete → validate; throws InvalidOptionsError with every error. */
export function authorizerOptions(
  argv?: string[]
): CompletedAuthorizerOptions & { mode: AuthorizationMode } {
  const completed = completeAuthorizerOptions(parseAuthorizerOptions(argv));
  const errors = validateAuthorizerOptions(completed);
  if (errors.length) throw new InvalidOptionsError('orch-authorizer', errors);
  return completed as CompletedAuthorizerOptions & { mode: AuthorizationMode };
}
