import type { GroupVersion } from '../schema/index.js';
import type { ResourceDefinition } from './resource-definition.js';

/** Lookup of served resources by group/version/resource and by kind (k8s RESTMapper). */
export class ResourceRegistry {
  readonly #byPath = new Map<string, ResourceDefinition>();
  #defs: ResourceDefinition[] = [];
  #generation = 0;

  constructor(defs: readonly ResourceDefinition[]) {
    for (const def of defs) this.add(def);
  }

  add(def: ResourceDefinition): void {
    const key = `${def.group}/${def.version}/${def.resource}`;
    if (this.#byPath.has(key)) throw new Error(`resource ${key} registered twice`);
    this.#byPath.set(key, def);
    this.#defs.push(def);
    this.#generation++;
  }

  /**
   * Raised by every change of the set of defs (add, remove, replace): what is derived from
   * the registry (discovery, OpenAPI) is computed again when it moved.
   */
  get generation(): number {
    return this.#generation;
  }

  /** Stops serving a resource (a custom resource whose CRD went or stopped serving a version). */
  remove(group: string, version: string, resource: string): ResourceDefinition | undefined {
    const key = `${group}/${version}/${resource}`;
    const def = this.#byPath.get(key);
    if (!def) return undefined;
    this.#byPath.delete(key);
    this.#defs = this.#defs.filter((d) => d !== def);
    this.#generation++;
    return def;
  }

  /** Serves `def` in place of the def of the same path (a custom resource's CRD changed), or adds it. */
  replace(def: ResourceDefinition): void {
    const key = `${def.group}/${def.version}/${def.resource}`;
    const old = this.#byPath.get(key);
    this.#byPath.set(key, def);
    this.#defs = old ? this.#defs.map((d) => (d === old ? def : d)) : [...this.#defs, def];
    this.#generation++;
  }

  lookup(group: string, version: string, resource: string): ResourceDefinition | undefined {
    return this.#byPath.get(`${group}/${version}/${resource}`);
  }

  all(): readonly ResourceDefinition[] {
    return this.#defs;
  }

  /** Served group versions, groups in first-registration order, core first. */
  groupVersions(): GroupVersion[] {
    const seen = new Map<string, GroupVersion>();
    for (const d of this.#defs)
      seen.set(`${d.group}/${d.version}`, { group: d.group, version: d.version });
    return [...seen.values()];
  }

  resourcesIn(gv: GroupVersion): ResourceDefinition[] {
    return this.#defs.filter((d) => d.group === gv.group && d.version === gv.version);
  }
}

/** The etcd key prefix of a resource: `/registry/<group>/<resource>/`, core spelled `core`. */
export function storagePrefix(def: ResourceDefinition, namespace?: string): string {
  const group = def.storageGroup ?? def.group;
  const base = `/registry/${group === '' ? 'core' : group}/${def.storageResource ?? def.resource}/`;
  return namespace && def.namespaced ? `${base}${namespace}/` : base;
}

export function storageKey(
  def: ResourceDefinition,
  namespace: string | undefined,
  name: string
): string {
  return `${storagePrefix(def, namespace)}${name}`;
}
