// `--feature-gates` for every service (k8s.io/component-base/featuregate: AddFlag), and the
// gauge `kubernetes_feature_enabled{name,stage}` (k8s.io/component-base/metrics/prometheus/feature).
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { StringFlags } from '../flags/parse-flags.js';
import { FeatureGate } from './feature-gate.js';
import { defaultFeatureGates } from './known-features.js';

export function featureGateFlags(): StringFlags<'feature-gates'> {
  const help = new FeatureGate(defaultFeatureGates).knownFeatures().join('\n        ');
  return {
    'feature-gates': {
      type: 'string',
      default: '',
      description: `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n        ${help}`,
    },
  } as const;
}

/** The gate of a service: the known gates with the flag's values applied. */
export interface FeatureGates {
  gate: FeatureGate;
  /** Printed at start (GA or deprecated gates that were set). */
  warnings: string[];
  /** The flag's problem, naming it; validate() reports it and the start stops. */
  errors: string[];
}

/** Builds the gate from the flag's text; a refused value is an error naming the flag. */
export function completeFeatureGates(text: string | undefined): FeatureGates {
  const gate = new FeatureGate(defaultFeatureGates);
  try {
    return { gate, warnings: gate.set(text ?? ''), errors: [] };
  } catch (err) {
    return { gate, warnings: [], errors: [`--feature-gates: ${(err as Error).message}`] };
  }
}

/** `kubernetes_feature_enabled`: 1 for an enabled gate, 0 otherwise; stage '' for GA, as upstream. */
export function registerFeatureMetrics(registry: Registry, gate: FeatureGate): void {
  const gauge = new Gauge({
    name: 'kubernetes_feature_enabled',
    help: '[BETA] This metric records the data about the stage and enablement of a k8s feature.',
    labelNames: ['name', 'stage'] as const,
    registers: [registry],
  });
  for (const [name, spec] of gate.known()) {
    gauge.set(
      { name, stage: spec.preRelease === 'GA' ? '' : spec.preRelease },
      gate.enabled(name) ? 1 : 0
    );
  }
}
