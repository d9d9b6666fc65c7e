// JSON parsing that sees duplicate keys: JSON.parse keeps the last value silently, so a scan
// with jsonc-parser's visitor (comments and trailing commas disallowed) reports the path of every
// key met twice in one object (`metadata.name`, `spec.containers[0].image`).
import jsonc from 'jsonc-parser';

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

interface Frame {
  kind: 'object' | 'array';
  path: string;
  keys?: Set<string>;
  index: number;
  /** The key whose value is being read (objects). */
  key?: string;
}

/** Parses JSON (JSON.parse semantics for the value: the last duplicate wins); throws SyntaxError. */
export function parseJsonStrict(text: string): StrictJson {
  const value = JSON.parse(text) as unknown;
  // Only objects can hold duplicates: skip the scan when no key can repeat.
  if (!text.includes('{')) return { value, duplicates: [] };
  const duplicates: string[] = [];
  const stack: Frame[] = [];
  const childPath = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.kind === 'array') return `${top.path}[${top.index}]`;
    return keyPath(top.path, top.key ?? '');
  };
  const valueDone = (): void => {
    const top = stack[stack.length - 1];
    if (top?.kind === 'array') top.index++;
  };
  jsonc.visit(
    text,
    {
      onObjectBegin: () =>
        void stack.push({ kind: 'object', path: childPath(), keys: new Set(), index: 0 }),
      onObjectProperty: (property: string) => {
        const top = stack[stack.length - 1];
        if (!top?.keys) return;
        top.key = property;
        if (top.keys.has(property)) duplicates.push(keyPath(top.path, property));
        top.keys.add(property);
      },
      onObjectEnd: () => {
        stack.pop();
        valueDone();
      },
      onArrayBegin: () => void stack.push({ kind: 'array', path: childPath(), index: 0 }),
      onArrayEnd: () => {
        stack.pop();
        valueDone();
      },
      onLiteralValue: () => valueDone(),
    },
    { disallowComments: true, allowTrailingComma: false }
  );
  return { value, duplicates };
}
