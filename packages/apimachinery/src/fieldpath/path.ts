// Paths (structured-merge-diff fieldpath/path.go): a list of path elements from the object's
// root, their string form (`.spec.containers[name="nginx"].image`, as conflicts name fields)
// and MakePath from field names, indexes and key elements.
import type { PathElement } from './element.js';
import { comparePathElements, pathElementEquals, pathElementString } from './element.js';

export type Path = readonly PathElement[];

/** Path.String. */
export function pathString(p: Path): string {
  return p.map(pathElementString).join('');
}

/** Path.Equals. */
export function pathEquals(a: Path, b: Path): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (!pathElementEquals(a[i] as PathElement, b[i] as PathElement)) return false;
  return true;
}

/** Path.Compare: element by element, the shorter path first. */
export function comparePaths(a: Path, b: Path): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const c = comparePathElements(a[i] as PathElement, b[i] as PathElement);
    if (c !== 0) return c;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/**
 * MakePath: strings are field names, numbers indexes, path elements (keyByFields, `{ value }`)
 * and paths are taken as they are.
 */
export function makePath(...parts: (string | number | PathElement | Path)[]): Path {
  const out: PathElement[] = [];
  for (const part of parts) {
    if (typeof part === 'string') out.push({ fieldName: part });
    else if (typeof part === 'number') {
      if (!Number.isInteger(part)) throw new Error(`makePath: index ${part} is not an integer`);
      out.push({ index: part });
    } else if (Array.isArray(part)) out.push(...(part as Path));
    else out.push(part as PathElement);
  }
  return out;
}
