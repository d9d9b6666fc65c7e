// Resource lists (k8s.io/apiserver/pkg/quota/v1 resources.go): maps of resource name to
// quantity, as quota usage is added, masked and compared.
import { addQuantities, compareQuantities, formatQuantity, parseQuantity } from './quantity.js';
import type { Quantity } from './quantity.js';

export type ResourceList = Record<string, Quantity>;

/** A JSON resource list (`{cpu: '100m'}`) parsed; entries that are not quantities are left out. */
export function parseResourceList(json: unknown): ResourceList {
  const out: ResourceList = {};
  if (typeof json !== 'object' || json === null) return out;
  for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
    const q =
      typeof v === 'string'
        ? parseQuantity(v)
        : typeof v === 'number'
          ? parseQuantity(String(v))
          : undefined;
    if (q) out[k] = q;
  }
  return out;
}

/** The JSON form, each quantity canonical. */
export function formatResourceList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(list).sort()) out[k] = formatQuantity(list[k]!);
  return out;
}

export function addResourceLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = out[k] ? addQuantities(out[k], v) : v;
  return out;
}

/** a - b, floored at zero per resource (quota.SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [k, v] of Object.entries(a)) {
    const nano = v.nano - (b[k]?.nano ?? 0n);
    out[k] = { nano: nano < 0n ? 0n : nano, format: v.format };
  }
  return out;
}

/** Only the named resources (quota.Mask). */
export function maskResourceList(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = {};
  for (const n of names) if (list[n]) out[n] = list[n];
  return out;
}

/**
 * Is every resource of `a` that `b` names at most `b`'s? The names over the limit, sorted
 * (quota.LessThanOrEqual).
 */
export function lessThanOrEqual(
  a: ResourceList,
  b: ResourceList
): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, v] of Object.entries(a)) {
    const limit = b[k];
    if (limit && compareQuantities(v, limit) > 0) exceeded.push(k);
  }
  return { allowed: exceeded.length === 0, exceeded: exceeded.sort() };
}

export function negativeResources(list: ResourceList): string[] {
  return Object.keys(list)
    .filter((k) => list[k]!.nano < 0n)
    .sort();
}

export function removeZeros(list: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [k, v] of Object.entries(list)) if (v.nano !== 0n) out[k] = v;
  return out;
}

export function equalResourceLists(a: ResourceList, b: ResourceList): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => b[k] !== undefined && b[k].nano === a[k]!.nano);
}

/** `a=1,b=2Gi`, sorted by name (the plugin's prettyPrint). */
export function prettyPrintResourceList(list: ResourceList): string {
  return Object.keys(list)
    .sort()
    .map((k) => `${k}=${formatQuantity(list[k]!)}`)
    .join(',');
}
