// Flags of the admission service (options → complete → validate; config.ts builds from them).
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

export const admissionFlags = {
  ...storageClientFlags(),
  ...natsFlags(),
  ...secureServingFlags({
    port: '6503',
    server: 'gRPC server',
    certDescription: 'Serving certificate (mutual TLS); also the client certificate to storage.',
    clientCaDescription:
      'CA that client certificates must chain to (and that storage is verified against).',
  }),
  'admission-control-config-file': {
    type: 'string',
    description:
      "AdmissionConfiguration (apiserver.config.orch.io/v1) with each plugin's configuration, inline or by path (the webhooks' credentials and service addresses, ImagePolicyWebhook's backend).",
  },
  'default-not-ready-toleration-seconds': {
    type: 'string',
    default: '300',
    description:
      'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration (DefaultTolerationSeconds).',
  },
  'default-unreachable-toleration-seconds': {
    type: 'string',
    default: '300',
    description:
      'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration (DefaultTolerationSeconds).',
  },
  ...operationalBesideFlags(),
  ...loggingFlags(),
  ...featureGateFlags(),
  ...showHiddenMetricsFlags(),
} as const;

/** The raw flag values. */
export type AdmissionOptions = FlagValues<typeof admissionFlags>;

export interface CompletedAdmissionOptions {
  storageAddress: string;
  natsUrls: string[];
  serving: SecureServingOptions;
  /** '' when no plugin is configured. */
  admissionControlConfigFile: string;
  /** The operational server: metrics, health, profiling, the log level. */
  operational: OperationalOptions;
  logLevel: LogLevel;
  /** DefaultTolerationSeconds's two flags (NaN when not an integer: validate says so). */
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
  /** --feature-gates: the gates, the warnings to print at start, the flag's errors. */
  featureGates: FeatureGates;
  /** --show-hidden-metrics-for-version ('' when not given). */
  showHiddenMetricsForVersion: string;
}

export function parseAdmissionOptions(argv?: string[]): AdmissionOptions {
  return parseFlags('orch-admission', admissionFlags, argv);
}

export function completeAdmissionOptions(f: AdmissionOptions): CompletedAdmissionOptions {
  return {
    storageAddress: f['storage-servers'] ?? '',
    natsUrls: natsUrls(f),
    serving: secureServingOptions(f),
    admissionControlConfigFile: f['admission-control-config-file'] ?? '',
    operational: operationalOptionsBeside(f, secureServingOptions(f).tls),
    logLevel: logLevel(f),
    defaultNotReadyTolerationSeconds: seconds(f['default-not-ready-toleration-seconds']),
    defaultUnreachableTolerationSeconds: seconds(f['default-unreachable-toleration-seconds']),
    featureGates: completeFeatureGates(f['feature-gates']),
    showHiddenMetricsForVersion: f['show-hidden-metrics-for-version'] ?? '',
  };
}

const seconds = (v: string | undefined): number =>
  v === undefined ? 300 : /^[0-9]+$/.test(v.trim()) ? Number(v.trim()) : NaN;

/** Every error at once. */
export function validateAdmissionOptions(o: CompletedAdmissionOptions): string[] {
  const errors: string[] = [];
  if (!o.storageAddress) {
    errors.push('--storage-servers is required: the plugins read the cluster through informers');
  }
  errors.push(
    ...validateNatsUrls(o.natsUrls),
    ...validateSecureServing(o.serving),
    ...validateOperational(o.operational, 'operational-secure-port'),
    ...validateLogLevel(o.logLevel),
    ...o.featureGates.errors,
    ...validateShowHiddenMetricsVersion(o.showHiddenMetricsForVersion)
  );
  for (const [flag, v] of [
    ['default-not-ready-toleration-seconds', o.defaultNotReadyTolerationSeconds],
    ['default-unreachable-toleration-seconds', o.defaultUnreachableTolerationSeconds],
  ] as const) {
    if (!Number.isSafeInteger(v)) errors.push(`--${flag} must be a non-negative integer (seconds)`);
  }
  return errors;
}

/** parse → complete → validate; throws InvalidOptionsError with every error. */
export function admissionOptions(argv?: string[]): CompletedAdmissionOptions {
  const completed = completeAdmissionOptions(parseAdmissionOptions(argv));
  const errors = validateAdmissionOptions(completed);
  if (errors.length) throw new InvalidOptionsError('orch-admission', errors);
  return completed;
}
