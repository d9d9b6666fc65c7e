/**
 * A deep copy of a JSON value: arrays and plain objects are copied, everything else is
 * returned as is. Keys are defined, not assigned, so a `__proto__` key stays plain data;
 * `undefined` members are kept, so validation can still see them.
 */
export function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(cloneJson);
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: cloneJson(v),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
