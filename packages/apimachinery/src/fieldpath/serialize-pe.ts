// The text form of one path element (structured-merge-diff fieldpath/serialize-pe.go):
// `f:<name>`, `k:<JSON object of the key fields, sorted by name>`, `v:<JSON value>`, `i:<n>`,
// written compact with Go's HTML-safe escapes as upstream's jsoniter writes them.
import type { Field, PathElement } from './element.js';
import type { JsonValue } from './value.js';
import { compareStrings, goJson, goJsonString, isMap } from './value.js';

/** A path element prefix this version does not know (upstream drops such elements). */
export class UnknownPathElementError extends Error {
  override readonly name = 'UnknownPathElementError';
}

/** SerializePathElement. */
export function serializePathElement(pe: PathElement): string {
  if (pe.fieldName !== undefined) return `f:${pe.fieldName}`;
  if (pe.key !== undefined)
    return `k:{${pe.key.map((f) => `${goJsonString(f.name)}:${goJson(f.value)}`).join(',')}}`;
  if (pe.value !== undefined) return `v:${goJson(pe.value)}`;
  if (pe.index !== undefined) return `i:${pe.index}`;
  throw new Error('invalid PathElement');
}

/** DeserializePathElement. */
export function deserializePathElement(s: string): PathElement {
  if (s.length < 2 || s[1] !== ':')
    throw new UnknownPathElementError(`unknown path element type: ${JSON.stringify(s)}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { fieldName: body };
    case 'v':
      return { value: parseJson(s, body) };
    case 'k': {
      const obj = parseJson(s, body);
      if (!isMap(obj))
        throw new Error(`parsing key as path element ${JSON.stringify(s)}: not a JSON object`);
      const key: Field[] = Object.keys(obj).map((name) => ({
        name,
        value: obj[name] as JsonValue,
      }));
      key.sort((a, b) => compareStrings(a.name, b.name));
      return { key };
    }
    case 'i': {
      if (!/^-?\d+$/.test(body))
        throw new Error(`parsing index as path element ${JSON.stringify(s)}: not an integer`);
      return { index: Number(body) };
    }
    default:
      throw new UnknownPathElementError(`unknown path element type: ${JSON.stringify(s)}`);
  }
}

function parseJson(s: string, body: string): JsonValue {
  try {
    return JSON.parse(body) as JsonValue;
  } catch (err) {
    throw new Error(`parsing path element ${JSON.stringify(s)}: ${(err as Error).message}`);
  }
}
