// Lists with x-kubernetes-list-type set or map as CEL values (k8s.io/apiserver/pkg/cel/common/
// valuesunstructured.go unstructuredSetList and unstructuredMapList, valuesreflect.go
// addToSetList, addToMapList, setElementKey and refValMapKey): a list converted from an object
// is marked with its list type; `==` on a marked left operand ignores order (a set compares
// its scalar elements, a map list its elements by their map keys), and `+` on one is a union
// (set: the left's order, the right's new elements appended) or a merge (map: an element of
// the right replaces the left's element with the same keys at its position, new keys are
// appended). The left operand decides, as upstream's Equal and Add are the left value's
// methods; unmarked (atomic) lists keep plain list semantics.

/** How a marked list compares and concatenates. */
export type CelListType =
  { readonly type: 'set' } | { readonly type: 'map'; readonly keys: readonly string[] };

const marks = new WeakMap<readonly unknown[], CelListType>();

/**
 * Marks `list` (a CEL value) as a list of `listType` and returns it. `keys` of a map list are
 * the CEL names of the map keys (escaped as the elements' fields are).
 */
export function withListType<T extends unknown[]>(list: T, listType: CelListType): T {
  marks.set(list, listType);
  return list;
}

/** The list type `list` was marked with, or undefined for an atomic (plain) list. */
export function listTypeOf(list: unknown): CelListType | undefined {
  return Array.isArray(list) ? marks.get(list) : undefined;
}

/** Upstream's error for a set of non-scalar elements. */
export const SET_OF_NON_SCALARS_MESSAGE =
  'listSet operations are only supported on lists of scalar values';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** A timestamp or duration of the engine: compared by its time or its seconds and nanos. */
function temporalKey(v: object): string | undefined {
  if (v instanceof Date) return `t:${v.getTime()}`;
  const d = v as { seconds?: unknown; nanos?: unknown };
  if (typeof d.seconds === 'bigint' || typeof d.seconds === 'number') {
    return `d:${String(d.seconds)}:${String(d.nanos)}`;
  }
  return undefined;
}

/** The key of a set element (upstream setElementKey): scalars only. */
function setElementKey(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return `s:${v}`;
    case 'bigint':
      return `i:${v}`;
    case 'number':
      return `n:${v}`;
    case 'boolean':
      return `b:${v}`;
    case 'undefined':
      return 'null';
    default:
  }
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return `y:${Buffer.from(v).toString('base64')}`;
  if (Array.isArray(v) || v instanceof Map || isPlainObject(v)) {
    throw new Error(SET_OF_NON_SCALARS_MESSAGE);
  }
  return (typeof v === 'object' ? temporalKey(v) : undefined) ?? `o:${String(v)}`;
}

/** The key of a map-list element (upstream refValMapKey): its map-key fields' values. */
function mapElementKey(v: unknown, keys: readonly string[]): string {
  const get = (k: string): unknown =>
    v instanceof Map ? v.get(k) : isPlainObject(v) ? v[k] : undefined;
  return JSON.stringify(
    keys.map((k) => {
      const x = get(k);
      if (x === undefined || x === null) return null;
      if (typeof x === 'bigint' || typeof x === 'number') return `#${String(x)}`;
      if (typeof x === 'string' || typeof x === 'boolean') return x;
      return setElementKey(x);
    })
  );
}

/** Whether `v` holds a marked list anywhere (only then do these semantics apply). */
export function containsTypedList(v: unknown): boolean {
  if (Array.isArray(v)) return marks.has(v) || v.some(containsTypedList);
  if (v instanceof Map) return [...v.values()].some(containsTypedList);
  if (isPlainObject(v)) return Object.values(v).some(containsTypedList);
  return false;
}

/** Equality of scalars as the engine defines it (int and double compare by value). */
function scalarEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    (typeof a === 'bigint' && typeof b === 'number') ||
    (typeof a === 'number' && typeof b === 'bigint')
  ) {
    return Number(a) === Number(b);
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = temporalKey(a);
    return ka !== undefined && ka === temporalKey(b);
  }
  return false;
}

function entriesOf(v: Map<unknown, unknown> | Record<string, unknown>): [unknown, unknown][] {
  return v instanceof Map ? [...v] : Object.entries(v);
}

/**
 * CEL equality where marked lists keep their list type's semantics, nested ones included
 * (upstream's Equal of unstructured values): a set list equals a list of the same size holding
 * the same scalars in any order; a map list one holding, for each of its elements, an equal
 * element with the same map keys, in any order; an atomic list one with equal elements in
 * order; objects and maps have equal values under the same keys.
 */
export function celEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false;
    if (a.length !== b.length) return false;
    const lt = marks.get(a);
    if (lt?.type === 'set') {
      const own = new Set(a.map(setElementKey));
      const seen = new Set<string>();
      for (const x of b) {
        const k = setElementKey(x);
        if (!own.has(k)) return false;
        seen.add(k);
      }
      return seen.size === own.size;
    }
    if (lt?.type === 'map') {
      const own = new Map(a.map((x) => [mapElementKey(x, lt.keys), x]));
      const seen = new Set<string>();
      for (const x of b) {
        const k = mapElementKey(x, lt.keys);
        if (!own.has(k) || !celEqual(own.get(k), x)) return false;
        seen.add(k);
      }
      return seen.size === own.size;
    }
    return a.every((x, i) => celEqual(x, b[i]));
  }
  if ((a instanceof Map || isPlainObject(a)) && (b instanceof Map || isPlainObject(b))) {
    const ea = entriesOf(a);
    const eb = new Map(entriesOf(b));
    if (ea.length !== eb.size) return false;
    return ea.every(([k, x]) => eb.has(k) && celEqual(x, eb.get(k)));
  }
  return scalarEqual(a, b);
}

/**
 * `a + b` where `a` is a marked list: the set union (upstream addToSetList) or the map-list
 * merge (addToMapList), itself a list of the same type. Undefined when `a` is not marked.
 */
export function celTypedListAdd(a: unknown, b: unknown): unknown[] | undefined {
  const lt = listTypeOf(a);
  if (!lt || !Array.isArray(a) || !Array.isArray(b)) return undefined;
  if (lt.type === 'set') {
    const seen = new Set(a.map(setElementKey));
    const out: unknown[] = [...a];
    for (const x of b) {
      const k = setElementKey(x);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(x);
      }
    }
    return withListType(out, lt);
  }
  const out: unknown[] = [...a];
  const at = new Map<string, number>();
  out.forEach((x, i) => at.set(mapElementKey(x, lt.keys), i));
  for (const x of b) {
    const k = mapElementKey(x, lt.keys);
    const i = at.get(k);
    if (i === undefined) {
      at.set(k, out.length);
      out.push(x);
    } else {
      out[i] = x;
    }
  }
  return withListType(out, lt);
}

type BinaryHandle = (left: unknown, right: unknown, ...rest: unknown[]) => unknown;

/**
 * The handle of a `==`, `!=` or `+` node with the semantics above in front of the engine's
 * own `handle`: operands without a marked list go to `handle` unchanged.
 */
export function withTypedListSemantics(op: string, handle: BinaryHandle): BinaryHandle {
  switch (op) {
    case '==':
    case '!=': {
      const negate = op === '!=';
      return (l, r, ...rest) => {
        if (!containsTypedList(l) && !containsTypedList(r)) return handle(l, r, ...rest);
        return celEqual(l, r) !== negate;
      };
    }
    case '+':
      return (l, r, ...rest) => celTypedListAdd(l, r) ?? handle(l, r, ...rest);
    default:
      return handle;
  }
}
