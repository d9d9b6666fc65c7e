import { cloneJson } from './clone-json.js';

/**
 * JSON merge patch (RFC 7386), the `application/merge-patch+json` PATCH type: an object
 * patch merges into the target key by key, `null` removes a key, and anything else
 * (arrays included) replaces the target outright. Neither input is mutated, and the result
 * shares no objects with them.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) {
    return cloneJson(patch);
  }
  const result: Record<string, unknown> = isPlainObject(target)
    ? (cloneJson(target) as Record<string, unknown>)
    : {};
  mergeInto(result, patch);
  return result;
}

function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete target[key];
      continue;
    }
    let merged: unknown;
    if (isPlainObject(value)) {
      const current = Object.hasOwn(target, key) ? target[key] : undefined;
      const base: Record<string, unknown> = isPlainObject(current) ? current : {};
      mergeInto(base, value);
      merged = base;
    } else {
      merged = cloneJson(value);
    }
    // defineProperty, not assignment: a "__proto__" key must stay data, not swap the prototype.
    Object.defineProperty(target, key, {
      value: merged,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
