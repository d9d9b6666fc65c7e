// PodSecurity's configuration (k8s.io/pod-security-admission/admission/api, the
// PodSecurityConfiguration kind of pod-security.admission.config.k8s.io/v1, here
// pod-security.admission.config.orch.io/v1): the cluster's default level and version for each
// mode, and the exemptions by username, runtime class and namespace. Every problem is reported
// at once, each naming its field.
import {
  fieldErrorMessage,
  fieldInvalid,
  fieldNotSupported,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { levels, latestMinor } from './checks.js';
import type { Level, Version } from './checks.js';

export const podSecurityConfigurationApiVersions = [
  'pod-security.admission.config.orch.io/v1',
  'pod-security.admission.config.orch.io/v1beta1',
];

export const modes = ['enforce', 'audit', 'warn'] as const;
export type Mode = (typeof modes)[number];

export interface LevelVersion {
  level: Level;
  version: Version;
}

export interface PodSecurityConfiguration {
  defaults: Record<Mode, LevelVersion>;
  exemptions: { usernames: string[]; runtimeClasses: string[]; namespaces: string[] };
}

/** Upstream's defaults: privileged at latest for every mode, nothing exempt. */
export function defaultPodSecurityConfiguration(): PodSecurityConfiguration {
  const privileged = (): LevelVersion => ({ level: 'privileged', version: 'latest' });
  return {
    defaults: { enforce: privileged(), audit: privileged(), warn: privileged() },
    exemptions: { usernames: [], runtimeClasses: [], namespaces: [] },
  };
}

/** A configuration that cannot be used: every field error. */
export class PodSecurityConfigurationError extends Error {
  override readonly name = 'PodSecurityConfigurationError';
  readonly errors: readonly FieldError[];
  constructor(errors: readonly FieldError[]) {
    super(`PodSecurity configuration: ${errors.map((e) => fieldErrorMessage(e)).join(', ')}`);
    this.errors = errors;
  }
}

const versionPattern = /^v1\.(0|[1-9][0-9]*)$/;

/** A level label or field value; undefined when it is not one (upstream's ParseLevel). */
export function parseLevel(v: unknown): Level | undefined {
  return typeof v === 'string' && (levels as readonly string[]).includes(v)
    ? (v as Level)
    : undefined;
}

/**
 * A version label or field value (upstream's ParseVersion): `latest` or `v1.N`; a version past
 * the newest known one is `latest`. Undefined when it is neither.
 */
export function parseVersion(v: unknown): Version | undefined {
  if (v === 'latest') return 'latest';
  if (typeof v !== 'string') return undefined;
  const m = versionPattern.exec(v);
  if (!m) return undefined;
  const minor = Number(m[1]);
  return minor >= latestMinor ? 'latest' : minor;
}

export const versionString = (v: Version): string => (v === 'latest' ? 'latest' : `v1.${v}`);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(v: unknown, path: FieldPath, errors: FieldError[]): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    errors.push(fieldInvalid(path, v, 'must be a list of strings'));
    return [];
  }
  const out: string[] = [];
  v.forEach((s, i) => {
    if (typeof s !== 'string' || s === '') {
      errors.push(fieldInvalid(path.index(i), s, 'must be a non-empty string'));
    } else out.push(s);
  });
  return out;
}

/** Parses the plugin's configuration; undefined gives the defaults. */
export function parsePodSecurityConfiguration(raw: unknown): PodSecurityConfiguration {
  const config = defaultPodSecurityConfiguration();
  if (raw === undefined || raw === null) return config;
  const errors: FieldError[] = [];
  if (!isObject(raw)) {
    throw new PodSecurityConfigurationError([
      fieldInvalid(newPath('configuration'), raw, 'must be an object'),
    ]);
  }
  if (raw['apiVersion'] !== undefined) {
    if (!podSecurityConfigurationApiVersions.includes(String(raw['apiVersion']))) {
      errors.push(
        fieldNotSupported(
          newPath('apiVersion'),
          raw['apiVersion'],
          podSecurityConfigurationApiVersions
        )
      );
    }
  }
  if (raw['kind'] !== undefined && raw['kind'] !== 'PodSecurityConfiguration') {
    errors.push(fieldNotSupported(newPath('kind'), raw['kind'], ['PodSecurityConfiguration']));
  }
  for (const k of Object.keys(raw)) {
    if (!['apiVersion', 'kind', 'defaults', 'exemptions'].includes(k)) {
      errors.push(
        fieldNotSupported(newPath(k), k, ['apiVersion', 'kind', 'defaults', 'exemptions'])
      );
    }
  }
  const defaults = raw['defaults'];
  if (defaults !== undefined) {
    const path = newPath('defaults');
    if (!isObject(defaults)) errors.push(fieldInvalid(path, defaults, 'must be an object'));
    else {
      const keys = modes.flatMap((m) => [m, `${m}-version`]);
      for (const k of Object.keys(defaults)) {
        if (!keys.includes(k)) errors.push(fieldNotSupported(path.child(k), k, keys));
      }
      for (const mode of modes) {
        const l = defaults[mode];
        if (l !== undefined) {
          const level = parseLevel(l);
          if (level) config.defaults[mode].level = level;
          else errors.push(fieldNotSupported(path.child(mode), l, [...levels]));
        }
        const v = defaults[`${mode}-version`];
        if (v !== undefined) {
          const version = parseVersion(v);
          if (version !== undefined) config.defaults[mode].version = version;
          else
            errors.push(
              fieldInvalid(path.child(`${mode}-version`), v, 'must be "latest" or "v1.x"')
            );
        }
      }
    }
  }
  const exemptions = raw['exemptions'];
  if (exemptions !== undefined) {
    const path = newPath('exemptions');
    if (!isObject(exemptions)) errors.push(fieldInvalid(path, exemptions, 'must be an object'));
    else {
      const keys = ['usernames', 'runtimeClasses', 'namespaces'] as const;
      for (const k of Object.keys(exemptions)) {
        if (!(keys as readonly string[]).includes(k)) {
          errors.push(fieldNotSupported(path.child(k), k, [...keys]));
        }
      }
      for (const k of keys) config.exemptions[k] = stringList(exemptions[k], path.child(k), errors);
    }
  }
  if (errors.length > 0) throw new PodSecurityConfigurationError(errors);
  return config;
}
