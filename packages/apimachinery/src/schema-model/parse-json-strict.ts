// JSON parsing that sees duplicate keys: JSON.parse keeps the last value silently, so a scan of
// the text (already known to be valid JSON once JSON.parse took it) reports the path of every key
// met twice in one object (`metadata.name`, `spec.containers[0].image`). The scan reads each
// character once and builds a path only for a duplicate: it costs a few times JSON.parse, where
// a general JSON visitor cost ten times more on every create and update.

export interface StrictJson {
  value: unknown;
  /** Paths of duplicate keys, in document order. */
  duplicates: string[];
}

/**
 * A key's path below `parent`: `.name` for field-like keys, `[key]` for others (map keys such as
 * `example.com/x`, as k8s field paths write them), so that a path names one field.
 */
export function keyPath(parent: string, key: string): string {
  if (!/^[A-Za-z0-9_$-]+$/.test(key)) return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** An object or array being read. */
interface Frame {
  parent: Frame | undefined;
  /** Where it sits in its parent: the key (object) or the index (array). */
  at: string | number | undefined;
  /** The keys met so far (objects only). */
  keys: Set<string> | undefined;
  /** The index of the element being read (arrays). */
  index: number;
  /** The key whose value is being read (objects). */
  key: string;
}

function pathOf(f: Frame): string {
  if (!f.parent) return '';
  const parent = pathOf(f.parent);
  if (typeof f.at === 'number') return `${parent}[${f.at}]`;
  return keyPath(parent, f.at ?? '');
}

/** Parses JSON (JSON.parse semantics for the value: the last duplicate wins); throws SyntaxError. */
export function parseJsonStrict(text: string): StrictJson {
  const value = JSON.parse(text) as unknown;
  // Only objects can hold duplicates: skip the scan when no key can repeat.
  if (!text.includes('{')) return { value, duplicates: [] };
  return { value, duplicates: duplicateKeys(text) };
}

/** The paths of duplicate keys of valid JSON text, in document order. */
function duplicateKeys(text: string): string[] {
  const duplicates: string[] = [];
  let top: Frame | undefined;
  // True right after `{` or after `,` in an object: the next string is a key.
  let expectKey = false;
  const child = (keys: Set<string> | undefined): Frame => ({
    parent: top,
    at: top ? (top.keys ? top.key : top.index) : undefined,
    keys,
    index: 0,
    key: '',
  });
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: find its closing quote, skipping escaped characters.
      const start = ++i;
      let escaped = false;
      for (let d = text.charCodeAt(i); d !== 0x22; d = text.charCodeAt(i)) {
        if (d === 0x5c) {
          escaped = true;
          i += 2;
        } else i++;
      }
      if (expectKey && top?.keys) {
        const raw = text.slice(start, i);
        // Escapes spell the same key differently ("a" and "\u0061"): compare decoded keys.
        const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key)) duplicates.push(keyPath(pathOf(top), key));
        else top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
    } else if (c === 0x7b) {
      top = child(new Set());
      expectKey = true;
    } else if (c === 0x5b) {
      top = child(undefined);
      expectKey = false;
    } else if (c === 0x7d || c === 0x5d) {
      top = top?.parent;
      expectKey = false;
    } else if (c === 0x2c && top) {
      if (top.keys) expectKey = true;
      else top.index++;
    }
  }
  return duplicates;
}
