// Conversion between the versions of a kind served from one stored collection (k8s
// runtime.Scheme's conversion functions, AddConversionFunc keyed by source and target type).
// A conversion is registered per group/kind from one version to another (the Store converts
// between a served version and the storage version, so each pair is registered both ways);
// `convert` answers the object at the version asked for. A kind stored in one collection under
// two groups (core and events.orch.io Events, upstream's one storage prefix "/events") registers
// its conversions across the groups. Objects are JSON: a conversion must not mutate its input.
import { formatApiVersion, parseApiVersion } from '../schema/index.js';
import type { GroupVersion } from '../schema/index.js';

type Json = Record<string, unknown>;

/** Converts one object of a kind from one version to another; never mutates its input. */
export type ConversionFunc = (obj: Json) => Json;

export interface ConversionKey {
  group: string;
  kind: string;
  from: string;
  to: string;
}

/** The conversions of the served kinds, keyed `group/kind from→to` (k8s runtime.Scheme). */
export class Conversions {
  readonly #funcs = new Map<string, ConversionFunc>();

  /** Registers one direction; a kind served in two versions registers both. */
  register(key: ConversionKey, fn: ConversionFunc): void {
    this.registerAcrossGroups(
      key.kind,
      { group: key.group, version: key.from },
      { group: key.group, version: key.to },
      fn
    );
  }

  /** Registers one direction between two groups' versions of a kind stored as one collection. */
  registerAcrossGroups(
    kind: string,
    from: GroupVersion,
    to: GroupVersion,
    fn: ConversionFunc
  ): void {
    const k = keyOf(kind, from, to);
    if (this.#funcs.has(k)) throw new Error(`conversion ${k} registered twice`);
    this.#funcs.set(k, fn);
  }

  /** Whether objects of a kind can be converted between two versions of its group. */
  has(group: string, kind: string, from: string, to: string): boolean {
    return this.canConvert(kind, { group, version: from }, { group, version: to });
  }

  /** Whether objects of a kind can be converted from one group and version to another. */
  canConvert(kind: string, from: GroupVersion, to: GroupVersion): boolean {
    if (from.group === to.group && from.version === to.version) return true;
    return this.#funcs.has(keyOf(kind, from, to));
  }

  /**
   * The object at `to` (apiVersion and kind set). An object already there is answered as it
   * is; an object of another group without a conversion across the groups, or a pair without a
   * conversion, is an error.
   */
  convert(obj: Json, to: GroupVersion): Json {
    const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
    const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
    const from = parseApiVersion(apiVersion);
    if (from && from.group === to.group && from.version === to.version) return obj;
    const fn = from && this.#funcs.get(keyOf(kind, from, to));
    if (!fn) {
      if (!from || from.group !== to.group) {
        throw new Error(`cannot convert ${apiVersion} ${kind} to group ${to.group || 'core'}`);
      }
      throw new Error(`no conversion of ${kind} from ${apiVersion} to ${to.version}`);
    }
    const out = fn(obj);
    out['apiVersion'] = formatApiVersion(to);
    out['kind'] = kind;
    return out;
  }
}

const keyOf = (kind: string, from: GroupVersion, to: GroupVersion): string =>
  `${kind} ${formatApiVersion(from)}→${formatApiVersion(to)}`;
