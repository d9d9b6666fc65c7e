// JSON values as structured-merge-diff sees them (sigs.k8s.io/structured-merge-diff/v4/value):
// the total order of value.Compare (numbers < strings < booleans < lists < maps < null), deep
// equality, value.ToString for path strings, and the JSON text upstream's jsoniter writes
// (ConfigCompatibleWithStandardLibrary: HTML-safe, compact) for `k:` and `v:` path elements.

/** A JSON value: what an object decoded from JSON or YAML holds. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export const isMap = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Orders strings by code point, which is the byte order of Go's strings.Compare on UTF-8. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 order differs from code point order only between surrogates and U+E000..U+FFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function rank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null) return 4;
  return 5;
}

/** value.Compare: a total order over JSON values (0 when equal). */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a === false ? -1 : 1;
    case 3: {
      const la = a as JsonValue[];
      const lb = b as JsonValue[];
      for (let i = 0; i < la.length && i < lb.length; i++) {
        const c = compareValues(la[i] as JsonValue, lb[i] as JsonValue);
        if (c !== 0) return c;
      }
      return la.length < lb.length ? -1 : la.length > lb.length ? 1 : 0;
    }
    case 4: {
      // value.MapCompare: keys in sorted order, then values; the shorter map first.
      const ma = a as JsonObject;
      const mb = b as JsonObject;
      const ka = Object.keys(ma).sort(compareStrings);
      const kb = Object.keys(mb).sort(compareStrings);
      for (let i = 0; i < ka.length && i < kb.length; i++) {
        const c = compareStrings(ka[i] as string, kb[i] as string);
        if (c !== 0) return c;
        const d = compareValues(ma[ka[i] as string] as JsonValue, mb[kb[i] as string] as JsonValue);
        if (d !== 0) return d;
      }
      return ka.length < kb.length ? -1 : ka.length > kb.length ? 1 : 0;
    }
    default:
      return 0;
  }
}

/** value.Equals: deep equality of JSON values (map key order does not matter). */
export function valueEquals(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valueEquals(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!valueEquals(a[k], b[k])) return false;
  }
  return true;
}

/** A JSON string literal as Go's encoder writes it (HTML characters escaped, \u00XX controls). */
export function goJsonString(s: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (c === 0x0a) esc = '\\n';
    else if (c === 0x0d) esc = '\\r';
    else if (c === 0x09) esc = '\\t';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029)
      esc = `\\u${c.toString(16).padStart(4, '0')}`;
    if (esc === undefined) continue;
    out += s.slice(from, i) + esc;
    from = i + 1;
  }
  return `${out}${s.slice(from)}"`;
}

/** Compact JSON text of a value as upstream writes it (map keys sorted, Go string escapes). */
export function goJson(v: JsonValue): string {
  if (typeof v === 'string') return goJsonString(v);
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const keys = Object.keys(v).sort(compareStrings);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJson(v[k] as JsonValue)}`).join(',')}}`;
}

/** value.ToString: how a value appears in a path string (`[name="nginx"]`). */
export function valueToString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(', ')}]`;
  const keys = Object.keys(v).sort(compareStrings);
  return `{${keys.map((k) => `${k}=${valueToString(v[k] as JsonValue)}`).join(', ')}}`;
}
