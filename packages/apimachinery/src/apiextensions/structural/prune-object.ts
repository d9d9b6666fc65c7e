// Pruning of the fields a structural schema does not specify (apiextensions-apiserver
// pkg/apiserver/schema/pruning/algorithm.go PruneWithOptions, prune, skipPrune, with the paths of
// schema UnknownFieldPathOptions).
import type { JSONSchemaProps } from '../types.js';
import { additionalPropertiesOf, isJsonObject, itemsOf, propertyOf } from './json-object.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

class PathTracker {
  readonly parent: string[] = [];
  readonly unknown: string[] = [];

  appendKey(k: string): void {
    if (this.parent.length > 0) this.parent.push('.');
    this.parent.push(k);
  }

  appendIndex(i: number): void {
    this.parent.push('[', String(i), ']');
  }

  record(k: string): void {
    const l = this.parent.length;
    this.appendKey(k);
    this.unknown.push(this.parent.join(''));
    this.parent.length = l;
  }
}

/**
 * Removes in place the fields of `obj` that `schema` does not specify, and returns their paths
 * (`spec.foo`, `spec.list[0].bar`), sorted. With `isResourceRoot`, `apiVersion`, `kind` and
 * `metadata` at the top are kept as in an embedded resource.
 */
export function pruneObject(
  obj: unknown,
  schema: JSONSchemaProps,
  opts: { isResourceRoot?: boolean } = {}
): string[] {
  let s: JSONSchemaProps | undefined = schema;
  if (opts.isResourceRoot) {
    s = { ...(schema ?? {}), 'x-kubernetes-embedded-resource': true };
  }
  const t = new PathTracker();
  prune(obj, s, t);
  return t.unknown.sort();
}

function prune(x: unknown, s: JSONSchemaProps | undefined, t: PathTracker): void {
  if (s?.['x-kubernetes-preserve-unknown-fields']) {
    skipPrune(x, s, t);
    return;
  }
  const l = t.parent.length;
  if (isJsonObject(x)) {
    if (!s) {
      for (const k of Object.keys(x)) {
        t.record(k);
        delete x[k];
      }
      return;
    }
    const embedded = s['x-kubernetes-embedded-resource'] === true;
    for (const k of Object.keys(x)) {
      if (embedded && metaFields.has(k)) continue;
      const prop = propertyOf(s, k);
      if (prop) {
        t.appendKey(k);
        prune(x[k], prop, t);
        t.parent.length = l;
      } else if (s.additionalProperties !== undefined) {
        t.appendKey(k);
        prune(x[k], additionalPropertiesOf(s), t);
        t.parent.length = l;
      } else {
        if (!metaFields.has(k) || t.parent.length > 0) t.record(k);
        delete x[k];
      }
    }
  } else if (Array.isArray(x)) {
    const items = s ? itemsOf(s) : undefined;
    x.forEach((v, i) => {
      t.appendIndex(i);
      prune(v, items, t);
      t.parent.length = l;
    });
  }
}

function skipPrune(x: unknown, s: JSONSchemaProps | undefined, t: PathTracker): void {
  if (!s) return;
  const l = t.parent.length;
  if (isJsonObject(x)) {
    const embedded = s['x-kubernetes-embedded-resource'] === true;
    for (const k of Object.keys(x)) {
      if (embedded && metaFields.has(k)) continue;
      const prop = propertyOf(s, k);
      if (prop) {
        t.appendKey(k);
        prune(x[k], prop, t);
        t.parent.length = l;
      } else if (s.additionalProperties !== undefined) {
        t.appendKey(k);
        prune(x[k], additionalPropertiesOf(s), t);
        t.parent.length = l;
      }
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => {
      t.appendIndex(i);
      skipPrune(v, itemsOf(s), t);
      t.parent.length = l;
    });
  }
}
