/**
 * Reads a field selector's field from a JSON object, the way the per-kind field sets of k8s
 * (`GetAttrs`, `fields.Set`) expose them: strings as is, booleans as `true`/`false`, numbers
 * in decimal (`42`). Absent fields, `null`, objects and arrays have no field value.
 */
export function fieldValue(obj: unknown, path: string): string | undefined {
  let current: unknown = obj;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) {
      return undefined;
    }
    if (!Object.hasOwn(current, segment)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[segment];
  }
  switch (typeof current) {
    case 'string':
      return current;
    case 'boolean':
      return current ? 'true' : 'false';
    case 'number':
      return Number.isFinite(current) ? String(current) : undefined;
    case 'bigint':
      return current.toString();
    default:
      return undefined;
  }
}
