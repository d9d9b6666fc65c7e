// Flags of the controllers service (options → complete → validate; config.ts builds from them).
import {
  InvalidOptionsError,
  logLevel,
  loggingFlags,
  parseFlags,
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

export const controllersFlags = {
  kubeconfig: {
    type: 'string',
    description: "Kubeconfig with the API address and this component's client certificate.",
  },
  ...loggingFlags(),
  ...featureGateFlags(),
  ...showHiddenMetricsFlags(),
} as const;

export type ControllersOptions = FlagValues<typeof controllersFlags>;

export interface CompletedControllersOptions {
  kubeconfig: string;
  logLevel: LogLevel;
  /** --feature-gates: the gates, the warnings to print at start, the flag's errors. */
  featureGates: FeatureGates;
  /** --show-hidden-metrics-for-version ('' when not given). */
  showHiddenMetricsForVersion: string;
}

export function parseControllersOptions(argv?: string[]): ControllersOptions {
  return parseFlags('orch-controllers', controllersFlags, argv);
}

export function completeControllersOptions(f: ControllersOptions): CompletedControllersOptions {
  return {
    kubeconfig: f.kubeconfig ?? '',
    logLevel: logLevel(f),
    featureGates: completeFeatureGates(f['feature-gates']),
    showHiddenMetricsForVersion: f['show-hidden-metrics-for-version'] ?? '',
  };
}

export function validateControllersOptions(o: CompletedControllersOptions): string[] {
  return [
    ...(o.kubeconfig ? [] : ['--kubeconfig is required']),
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
