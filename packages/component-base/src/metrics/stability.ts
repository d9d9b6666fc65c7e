// Metric stability classes (k8s.io/component-base/metrics: opts.go annotateStabilityLevel and
// markDeprecated, version_parser.go, registry.go's hidden metrics and --show-hidden-metrics-for-version).
// A metric's help starts with its class, `[ALPHA]`, `[BETA]` or `[STABLE]`; a deprecated one's
// description then starts with `(Deprecated since X.Y.Z)`. Once its deprecated version is the
// current minor minus 3 or older it is hidden (not registered) unless the previous minor is
// given to --show-hidden-metrics-for-version; hidden metrics are deleted one release later.
import type { Registry } from 'prom-client';
import type { StringFlags } from '../flags/parse-flags.js';

export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

export interface Stability {
  stabilityLevel: StabilityLevel;
  /** `X.Y.Z`: the release that deprecated the metric. */
  deprecatedVersion?: string;
}

/** The release this server reports on /version (v1.32.0-orch...). */
export const currentMetricsVersion = '1.32.0';

let showHidden = false;

/** --show-hidden-metrics-for-version was given (valid): hidden metrics are registered. */
export function setShowHiddenMetrics(): void {
  showHidden = true;
}

/** Only for tests that start services in one process. */
export function resetShowHiddenMetrics(): void {
  showHidden = false;
}

function minorOf(version: string): { major: number; minor: number } {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version.trim());
  if (!m) throw new Error(`version ${JSON.stringify(version)} is not major.minor[.patch]`);
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** Whether a metric deprecated in `deprecatedVersion` is hidden at `current` (spec: minor − 3). */
export function shouldHide(deprecatedVersion: string, current = currentMetricsVersion): boolean {
  const d = minorOf(deprecatedVersion);
  const c = minorOf(current);
  return d.major < c.major || (d.major === c.major && d.minor <= c.minor - 3);
}

/** Errors of --show-hidden-metrics-for-version: empty, or the previous minor only (upstream's message). */
export function validateShowHiddenMetricsVersion(
  value: string | undefined,
  current = currentMetricsVersion
): string[] {
  if (!value) return [];
  const c = minorOf(current);
  const previous = `${c.major}.${c.minor - 1}`;
  let v: { major: number; minor: number } | undefined;
  try {
    v = /^\d+\.\d+$/.test(value.trim()) ? minorOf(value) : undefined;
  } catch {
    v = undefined;
  }
  if (!v || v.major !== c.major || v.minor !== c.minor - 1) {
    return [
      `--show-hidden-metrics-for-version must be omitted or have the value '${previous}'. Only the previous minor version is allowed.`,
    ];
  }
  return [];
}

/**
 * A metric's configuration with its help annotated and, when it is hidden, registered nowhere:
 * `new Counter(withStability({ name, help, registers: [registry] }, { stabilityLevel: 'STABLE' }))`.
 */
export function withStability<T extends { help: string; registers?: Registry[] }>(
  config: T,
  s: Stability
): T {
  let help = config.help;
  if (s.deprecatedVersion) help = `(Deprecated since ${s.deprecatedVersion}) ${help}`;
  help = `[${s.stabilityLevel}] ${help}`;
  const hidden =
    s.deprecatedVersion !== undefined && shouldHide(s.deprecatedVersion) && !showHidden;
  return { ...config, help, ...(hidden ? { registers: [] } : {}) };
}

/** `--show-hidden-metrics-for-version`, for every service. */
export function showHiddenMetricsFlags(): StringFlags<'show-hidden-metrics-for-version'> {
  return {
    'show-hidden-metrics-for-version': {
      type: 'string',
      default: '',
      description: `The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.31'.`,
    },
  } as const;
}
