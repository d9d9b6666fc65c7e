/**
 * A minimal stand-in for the `reflect-metadata` polyfill.
 *
 * `@peculiar/x509` registers its algorithm providers through `tsyringe`, which refuses to load
 * unless `Reflect.getMetadata` exists. tsyringe only reads and writes plain metadata maps
 * (`getMetadata`, `getOwnMetadata`, `defineMetadata`), so a WeakMap keyed by target is enough and
 * spares every consumer of this package a global side-effect import. When a real polyfill is
 * already installed this module leaves it alone.
 */

type MetadataMap = Map<unknown, unknown>;

interface ReflectMetadataApi {
  getMetadata(key: unknown, target: object, property?: string | symbol): unknown;
  getOwnMetadata(key: unknown, target: object, property?: string | symbol): unknown;
  hasMetadata(key: unknown, target: object, property?: string | symbol): boolean;
  hasOwnMetadata(key: unknown, target: object, property?: string | symbol): boolean;
  defineMetadata(key: unknown, value: unknown, target: object, property?: string | symbol): void;
}

/** Installs the metadata functions on the global `Reflect` unless they are already present. */
export function installReflectMetadataShim(): void {
  const reflect = Reflect as unknown as Partial<ReflectMetadataApi>;
  if (typeof reflect.getMetadata === 'function') {
    return;
  }
  const store = new WeakMap<object, Map<string | symbol | undefined, MetadataMap>>();

  const ownMap = (target: object, property: string | symbol | undefined, create: boolean) => {
    let byProperty = store.get(target);
    if (!byProperty) {
      if (!create) return undefined;
      byProperty = new Map();
      store.set(target, byProperty);
    }
    let map = byProperty.get(property);
    if (!map && create) {
      map = new Map();
      byProperty.set(property, map);
    }
    return map;
  };

  const api: ReflectMetadataApi = {
    getOwnMetadata: (key, target, property) => ownMap(target, property, false)?.get(key),
    hasOwnMetadata: (key, target, property) =>
      ownMap(target, property, false)?.has(key) ?? false,
    getMetadata(key, target, property) {
      for (let t: object | null = target; t !== null; t = Object.getPrototypeOf(t) as object | null) {
        const map = ownMap(t, property, false);
        if (map?.has(key)) return map.get(key);
      }
      return undefined;
    },
    hasMetadata(key, target, property) {
      for (let t: object | null = target; t !== null; t = Object.getPrototypeOf(t) as object | null) {
        if (ownMap(t, property, false)?.has(key)) return true;
      }
      return false;
    },
    defineMetadata(key, value, target, property) {
      ownMap(target, property, true)?.set(key, value);
    },
  };
  Object.assign(Reflect, api);
}

installReflectMetadataShim();
