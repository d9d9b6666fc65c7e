// Field errors as k8s.io/apimachinery/pkg/util/validation/field writes them: a path built with
// child, index and key, and one constructor per error type. Every validation of the suite
// (metadata, strategies, reviews, patches) builds its causes from these, so messages keep
// upstream's form ("metadata.labels[app]: Invalid value: ...") wherever they come from.
import type { FieldError } from './status-error.js';

/** A field path (k8s field.Path): `metadata.ownerReferences[0].uid`, `metadata.labels[app]`. */
export class FieldPath {
  readonly #parts: readonly string[];

  private constructor(parts: readonly string[]) {
    this.#parts = parts;
  }

  static root(name: string, ...more: string[]): FieldPath {
    return new FieldPath([name, ...more.map((m) => `.${m}`)]);
  }

  child(name: string, ...more: string[]): FieldPath {
    return new FieldPath([...this.#parts, `.${name}`, ...more.map((m) => `.${m}`)]);
  }

  index(i: number): FieldPath {
    return new FieldPath([...this.#parts, `[${i}]`]);
  }

  key(k: string): FieldPath {
    return new FieldPath([...this.#parts, `[${k}]`]);
  }

  toString(): string {
    return this.#parts.join('');
  }
}

/** `field.NewPath("metadata", "name")`. */
export function newPath(name: string, ...more: string[]): FieldPath {
  return FieldPath.root(name, ...more);
}

type PathLike = FieldPath | string;
const str = (p: PathLike): string => (typeof p === 'string' ? p : p.toString());

export function fieldRequired(path: PathLike, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field: str(path), message: detail };
}

export function fieldInvalid(path: PathLike, value: unknown, detail = ''): FieldError {
  return { type: 'FieldValueInvalid', field: str(path), message: detail, value };
}

export function fieldForbidden(path: PathLike, detail = ''): FieldError {
  return { type: 'FieldValueForbidden', field: str(path), message: detail };
}

export function fieldNotFound(path: PathLike, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field: str(path), message: '', value };
}

export function fieldDuplicate(path: PathLike, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field: str(path), message: '', value };
}

/** `field.NotSupported`: the message lists the supported values, quoted. */
export function fieldNotSupported(
  path: PathLike,
  value: unknown,
  valid: readonly string[]
): FieldError {
  const detail =
    valid.length > 0 ? `supported values: ${valid.map((v) => `"${v}"`).join(', ')}` : '';
  return { type: 'FieldValueNotSupported', field: str(path), message: detail, value };
}

/** `field.TooLong` (k8s 1.30 wording); the value is left out, as upstream does for long values. */
export function fieldTooLong(path: PathLike, maxLength: number): FieldError {
  return {
    type: 'FieldValueTooLong',
    field: str(path),
    message: `may not be more than ${maxLength} bytes`,
  };
}

/** `field.TooMany`: a list or map with more items than allowed. */
export function fieldTooMany(path: PathLike, actual: number, max: number): FieldError {
  return {
    type: 'FieldValueTooMany',
    field: str(path),
    message: `must have at most ${max} items`,
    value: actual,
  };
}
