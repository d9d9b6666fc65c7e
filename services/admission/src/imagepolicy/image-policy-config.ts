// The ImagePolicyWebhook configuration (plugin/pkg/admission/imagepolicy/config.go:
// imagePolicyWebhookConfig, normalizeWebhookConfig, normalizeConfigDuration): `imagePolicy` with
// kubeConfigFile, allowTTL and denyTTL in seconds, retryBackoff in milliseconds, defaultAllow.
// 0 (or absent) takes the default, -1 disables (no caching, no wait between retries); other values
// must lie within upstream's bounds. Errors name the field and are raised when the service starts.
/** The configuration in effect, durations in milliseconds. */
export interface ImagePolicyConfig {
  kubeConfigFile: string;
  allowTtlMs: number;
  denyTtlMs: number;
  retryBackoffMs: number;
  defaultAllow: boolean;
}

/** A configuration the plugin cannot start with. */
export class ImagePolicyConfigError extends Error {
  override readonly name = 'ImagePolicyConfigError';
}

const second = 1000;
const minute = 60 * second;

interface DurationRule {
  key: 'allowTTL' | 'denyTTL' | 'retryBackoff';
  /** Milliseconds per unit of the configured number. */
  scale: number;
  min: number;
  max: number;
  def: number;
}

// Upstream's bounds: minRetryBackoff is 1ns, which at millisecond scale is 1 ms.
export const retryBackoffRule: DurationRule = {
  key: 'retryBackoff',
  scale: 1,
  min: 1,
  max: 5 * minute,
  def: 500,
};
export const allowTtlRule: DurationRule = {
  key: 'allowTTL',
  scale: second,
  min: second,
  max: 30 * minute,
  def: 5 * minute,
};
export const denyTtlRule: DurationRule = {
  key: 'denyTTL',
  scale: second,
  min: second,
  max: 30 * minute,
  def: 30 * second,
};

/** Go's time.Duration.String for whole milliseconds: `500ms`, `1s`, `30m0s`, `1h0m0s`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < second) return `${sign}${abs}ms`;
  const h = Math.floor(abs / (60 * minute));
  const m = Math.floor((abs % (60 * minute)) / minute);
  const s = (abs % minute) / second;
  if (h > 0) return `${sign}${h}h${m}m${s}s`;
  if (m > 0) return `${sign}${m}m${s}s`;
  return `${sign}${s}s`;
}

function normalizeDuration(value: unknown, rule: DurationRule): number {
  const field = `imagePolicy.${rule.key}`;
  if (value === undefined || value === null || value === 0) return rule.def;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new ImagePolicyConfigError(
      `${field}: Invalid value: ${JSON.stringify(value)}: must be an integer`
    );
  }
  if (value === -1) return 0;
  const ms = value * rule.scale;
  if (ms < rule.min || ms > rule.max) {
    throw new ImagePolicyConfigError(
      `${field}: Invalid value: ${value}: valid value is between ${formatDuration(rule.min)} and ${formatDuration(rule.max)}, got ${formatDuration(ms)}`
    );
  }
  return ms;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const knownKeys = new Set([
  'kubeConfigFile',
  'allowTTL',
  'denyTTL',
  'retryBackoff',
  'defaultAllow',
]);

/**
 * Parses the plugin's configuration (`PluginDeps.config`): `{imagePolicy: {...}}`, optionally
 * with upstream's versioned header `apiVersion: imagepolicy.admission.orch.io/v1alpha1`,
 * `kind: ImagePolicyWebhookConfiguration`. A relative kubeConfigFile is relative to the
 * working directory, as upstream's. Unknown keys are refused (upstream ignores them), so that a
 * misspelt key is not silently left at its default.
 */
export function parseImagePolicyConfig(config: unknown): ImagePolicyConfig {
  if (config === undefined || config === null) {
    throw new ImagePolicyConfigError(
      'no config specified: give ImagePolicyWebhook an entry with imagePolicy in --admission-control-config-file'
    );
  }
  if (!isObject(config)) {
    throw new ImagePolicyConfigError(
      `Invalid value: ${JSON.stringify(config)}: expected an object with imagePolicy`
    );
  }
  const apiVersion = config['apiVersion'];
  const kind = config['kind'];
  if (apiVersion !== undefined && apiVersion !== 'imagepolicy.admission.orch.io/v1alpha1') {
    throw new ImagePolicyConfigError(
      `apiVersion: Unsupported value: ${JSON.stringify(apiVersion)}: supported values: "imagepolicy.admission.orch.io/v1alpha1"`
    );
  }
  if (kind !== undefined && kind !== 'ImagePolicyWebhookConfiguration') {
    throw new ImagePolicyConfigError(
      `kind: Unsupported value: ${JSON.stringify(kind)}: supported values: "ImagePolicyWebhookConfiguration"`
    );
  }
  const p = config['imagePolicy'];
  if (p === undefined || p === null) {
    throw new ImagePolicyConfigError('imagePolicy: Required value');
  }
  if (!isObject(p)) {
    throw new ImagePolicyConfigError(
      `imagePolicy: Invalid value: ${JSON.stringify(p)}: must be an object`
    );
  }
  for (const key of Object.keys(p)) {
    if (!knownKeys.has(key)) {
      throw new ImagePolicyConfigError(`imagePolicy.${key}: Forbidden: unknown field`);
    }
  }
  const kubeConfigFile = p['kubeConfigFile'];
  if (kubeConfigFile === undefined || kubeConfigFile === null || kubeConfigFile === '') {
    throw new ImagePolicyConfigError('imagePolicy.kubeConfigFile: Required value');
  }
  if (typeof kubeConfigFile !== 'string') {
    throw new ImagePolicyConfigError(
      `imagePolicy.kubeConfigFile: Invalid value: ${JSON.stringify(kubeConfigFile)}: must be a path`
    );
  }
  const defaultAllow = p['defaultAllow'] ?? false;
  if (typeof defaultAllow !== 'boolean') {
    throw new ImagePolicyConfigError(
      `imagePolicy.defaultAllow: Invalid value: ${JSON.stringify(defaultAllow)}: must be true or false`
    );
  }
  return {
    kubeConfigFile,
    // Upstream's order: backoff, then the allow and deny caches.
    retryBackoffMs: normalizeDuration(p['retryBackoff'], retryBackoffRule),
    allowTtlMs: normalizeDuration(p['allowTTL'], allowTtlRule),
    denyTtlMs: normalizeDuration(p['denyTTL'], denyTtlRule),
    defaultAllow,
  };
}
