// Upstream's ensurer keeps the bootstrap objects' specs (pkg/registry/flowcontrol/ensurer): a
// mandatory object's spec is always put back; a suggested one's only while its auto-update
// annotation says true (or, without the annotation, while it was never changed: generation 1).
// A spec counts as current when every field of the bootstrap spec has its value in the stored
// one, so the defaults storage adds never trigger a write.
import type { ApiObject } from '@orch/apimachinery/meta';
import { autoUpdateAnnotation } from './bootstrap.js';

/** Whether `want` is contained in `have`: objects field by field, everything else equal. */
export function containedIn(want: unknown, have: unknown): boolean {
  if (want === null || typeof want !== 'object') return want === have;
  if (Array.isArray(want))
    return (
      Array.isArray(have) &&
      have.length === want.length &&
      want.every((w, i) => containedIn(w, have[i]))
    );
  if (have === null || typeof have !== 'object' || Array.isArray(have)) return false;
  const h = have as Record<string, unknown>;
  return Object.entries(want as Record<string, unknown>).every(([k, v]) => containedIn(v, h[k]));
}

export function shouldUpdateSpec(stored: ApiObject, mandatory: boolean): boolean {
  if (mandatory) return true;
  const value = stored.metadata.annotations?.[autoUpdateAnnotation];
  if (value !== undefined) return value === 'true';
  return stored.metadata.generation === 1;
}

/** The stored object with the bootstrap spec, or undefined when nothing is to be written. */
export function specUpdate(
  stored: ApiObject,
  bootstrap: ApiObject,
  mandatory: boolean
): ApiObject | undefined {
  if (!shouldUpdateSpec(stored, mandatory)) return undefined;
  if (containedIn(bootstrap['spec'], stored['spec'])) return undefined;
  return { ...stored, spec: structuredClone(bootstrap['spec']) };
}
