// --runtime-config: which group versions and resources the gateway serves
// (k8s.io/apiserver/pkg/server/resourceconfig/helpers.go MergeAPIResourceConfigs, and
// k8s.io/apiserver/pkg/server/storage/resource_config.go ResourceConfig). Keys are
// `<group>/<version>` or `<group>/<version>/<resource>` (core: `v1` or `api/v1`), plus `api/all`,
// `api/ga`, `api/beta`, `api/alpha`; `=true|false`, a missing value meaning true. Defaults follow
// the spec's life cycle: GA on, alpha off, beta off unless introduced before 1.22.
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { parseGoBool } from '@orch/component-base/flags';

/** Stability of a version name: `v1` GA, `v1beta2` beta, `v2alpha1` alpha (upstream's version ordering). */
export type VersionLevel = 'ga' | 'beta' | 'alpha';

export function versionLevel(version: string): VersionLevel | undefined {
  if (/^v[1-9]\d*$/.test(version)) return 'ga';
  if (/^v[1-9]\d*beta[1-9]\d*$/.test(version)) return 'beta';
  if (/^v[1-9]\d*alpha[1-9]\d*$/.test(version)) return 'alpha';
  return undefined;
}

/**
 * The release that introduced each beta version this server may serve (upstream's
 * +k8s:prerelease-lifecycle-gen:introduced markers); a beta version introduced before 1.22 is
 * on by default, a later or unknown one off.
 */
export const betaIntroduced: Readonly<Record<string, string>> = {
  'authentication.orch.io/v1beta1': '1.27',
  'authorization.orch.io/v1beta1': '1.3',
  'admissionregistration.orch.io/v1beta1': '1.28',
  'autoscaling/v2beta2': '1.12',
  'batch/v1beta1': '1.8',
  'certificates.orch.io/v1beta1': '1.7',
  'coordination.orch.io/v1beta1': '1.12',
  'discovery.orch.io/v1beta1': '1.16',
  'events.orch.io/v1beta1': '1.8',
  'flowcontrol.apiserver.orch.io/v1beta3': '1.26',
  'networking.orch.io/v1beta1': '1.31',
  'node.orch.io/v1beta1': '1.14',
  'policy/v1beta1': '1.5',
  'resource.orch.io/v1beta1': '1.32',
  'scheduling.orch.io/v1beta1': '1.11',
  'storage.orch.io/v1beta1': '1.31',
};

const minorOf = (release: string): number => Number(release.split('.')[1] ?? 'NaN');

/** Whether a group version is served when --runtime-config says nothing about it. */
export function enabledByDefault(group: string, version: string): boolean {
  switch (versionLevel(version)) {
    case 'ga':
      return true;
    case 'beta': {
      const introduced = betaIntroduced[group === '' ? version : `${group}/${version}`];
      return introduced !== undefined && minorOf(introduced) < 22;
    }
    default:
      return false;
  }
}

/** One `key=value` of the flag, in order. */
export interface RuntimeConfigEntry {
  key: string;
  value: boolean;
}

/** Parses the flag's text; a malformed pair is an error naming its key. */
export function parseRuntimeConfig(text: string): RuntimeConfigEntry[] {
  const entries: RuntimeConfigEntry[] = [];
  for (const piece of text.split(',')) {
    const s = piece.trim();
    if (s === '') continue;
    const eq = s.indexOf('=');
    const key = (eq < 0 ? s : s.slice(0, eq)).trim();
    const raw = eq < 0 ? 'true' : s.slice(eq + 1).trim();
    if (key === '') throw new Error(`invalid key in ${JSON.stringify(s)}: the key is empty`);
    const value = parseGoBool(raw);
    if (value === undefined) {
      throw new Error(`invalid value of ${key}: ${JSON.stringify(raw)} (must be true or false)`);
    }
    entries.push({ key, value });
  }
  return entries;
}

/** Which group versions and resources are served (upstream's ResourceConfig). */
export class ResourceConfig {
  readonly #versions = new Map<string, boolean>();
  readonly #resources = new Map<string, boolean>();

  setVersion(group: string, version: string, enabled: boolean): void {
    this.#versions.set(`${group}/${version}`, enabled);
  }

  setResource(group: string, version: string, resource: string, enabled: boolean): void {
    this.#resources.set(`${group}/${version}/${resource}`, enabled);
  }

  versionEnabled(group: string, version: string): boolean {
    return this.#versions.get(`${group}/${version}`) ?? enabledByDefault(group, version);
  }

  /** A resource set on its own wins over its group version (upstream's ResourceEnabled). */
  resourceEnabled(def: Pick<ResourceDefinition, 'group' | 'version' | 'resource'>): boolean {
    return (
      this.#resources.get(`${def.group}/${def.version}/${def.resource}`) ??
      this.versionEnabled(def.group, def.version)
    );
  }
}

const levelKeys: Readonly<Record<string, VersionLevel | 'all'>> = {
  'api/all': 'all',
  'api/ga': 'ga',
  'api/beta': 'beta',
  'api/alpha': 'alpha',
};

/**
 * The resource config of the flag over the known resources: `api/all` first, then `api/ga`,
 * `api/beta`, `api/alpha`, then each group version and resource in the flag's order. An unknown
 * group version or resource is an error naming the key.
 */
export function resourceConfigFor(
  known: readonly ResourceDefinition[],
  entries: readonly RuntimeConfigEntry[]
): ResourceConfig {
  const config = new ResourceConfig();
  const versions = new Map<string, { group: string; version: string }>();
  for (const d of known) versions.set(`${d.group}/${d.version}`, d);
  for (const level of ['all', 'ga', 'beta', 'alpha'] as const) {
    for (const e of entries) {
      if (levelKeys[e.key] !== level) continue;
      for (const gv of versions.values()) {
        if (level === 'all' || versionLevel(gv.version) === level) {
          config.setVersion(gv.group, gv.version, e.value);
        }
      }
    }
  }
  for (const e of entries) {
    if (levelKeys[e.key]) continue;
    const parts = e.key.split('/');
    // Core: `v1`, `api/v1`, `v1/<resource>`, `api/v1/<resource>`.
    if (parts[0] === 'api') parts[0] = '';
    else if (parts.length === 1 || (parts.length === 2 && versionLevel(parts[0]!) !== undefined)) {
      parts.unshift('');
    }
    if (parts.length < 2 || parts.length > 3 || parts.some((p, i) => p === '' && i > 0)) {
      throw new Error(`invalid key ${JSON.stringify(e.key)}`);
    }
    const [group, version, resource] = parts as [string, string, string | undefined];
    if (!versions.has(`${group}/${version}`)) {
      throw new Error(`unknown group version ${JSON.stringify(e.key)}`);
    }
    if (resource === undefined) {
      config.setVersion(group, version, e.value);
      continue;
    }
    if (!known.some((d) => d.group === group && d.version === version && d.resource === resource)) {
      throw new Error(`unknown resource ${JSON.stringify(e.key)}`);
    }
    config.setResource(group, version, resource, e.value);
  }
  return config;
}

/** The definitions the gateway serves: the known ones the flag leaves enabled. */
export function enabledResources(
  known: readonly ResourceDefinition[],
  runtimeConfig: string
): ResourceDefinition[] {
  const config = resourceConfigFor(known, parseRuntimeConfig(runtimeConfig));
  return known.filter((d) => config.resourceEnabled(d));
}
