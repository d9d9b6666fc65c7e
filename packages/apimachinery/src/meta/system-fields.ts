// Timestamps as the API writes them and the metadata fields only the server sets (k8s
// metav1.Now, rest.FillObjectMetaSystemFields, rest.WipeObjectMetaSystemFields).
import { randomUUID } from 'node:crypto';
import type { ObjectMeta } from './object-meta.js';

/** A time as metav1.Time marshals it: RFC 3339 in UTC, whole seconds (`2024-05-01T10:00:00Z`). */
export function formatTimestamp(d: Date): string {
  return d.toISOString().replace(/\.\d+Z$/, 'Z');
}

let nowSecond = NaN;
let nowText = '';

/**
 * The current time as a metadata timestamp (k8s metav1.Now). Formatted once per second: every
 * write stamps its managed fields, a create its creationTimestamp too.
 */
export function now(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== nowSecond) {
    nowSecond = second;
    nowText = formatTimestamp(new Date(second * 1000));
  }
  return nowText;
}

/** Sets the fields the server assigns at creation: a new uid and creationTimestamp. */
export function fillObjectMetaSystemFields(meta: ObjectMeta): void {
  meta.uid = randomUUID();
  meta.creationTimestamp = now();
}

/** Clears the fields only the server may set (before a create from client input). */
export function wipeObjectMetaSystemFields(meta: ObjectMeta): void {
  delete meta.creationTimestamp;
  delete meta.uid;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
}
