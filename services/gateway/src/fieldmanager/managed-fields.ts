// managedFields in and out of objects (k8s.io/apimachinery util/managedfields/internal
// managedfields.go): entries decoded into the field sets of structured-merge-diff keyed by a
// manager identifier (the entry without its time and fields, and without the apiVersion for an
// Apply), and encoded back sorted as upstream (Apply first, then by time, manager, version,
// subresource).
import type { ManagedFields } from '@orch/apimachinery/fieldpath';
import { newVersionedSet, setFromFieldsV1, setToFieldsV1 } from '@orch/apimachinery/fieldpath';
import type { ApiObject } from '@orch/apimachinery/meta';

/** One metadata.managedFields entry (k8s metav1.ManagedFieldsEntry). */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** The decoded managedFields: the sets by manager identifier and when each last changed. */
export class Managed {
  constructor(
    readonly fields: ManagedFields = new Map(),
    readonly times: Map<string, string | undefined> = new Map()
  ) {}

  copy(): Managed {
    return new Managed(new Map(this.fields), new Map(this.times));
  }
}

/** The parts of an entry that name its manager (k8s BuildManagerIdentifier). */
export function buildManagerIdentifier(e: ManagedFieldsEntry): string {
  const id: ManagedFieldsEntry = {};
  if (e.manager) id.manager = e.manager;
  if (e.operation) id.operation = e.operation;
  if (e.apiVersion && e.operation !== 'Apply') id.apiVersion = e.apiVersion;
  if (e.subresource) id.subresource = e.subresource;
  return JSON.stringify(id);
}

/** The entry a manager identifier stands for (k8s decodes the identifier the same way). */
export function parseManagerIdentifier(id: string): ManagedFieldsEntry {
  try {
    const parsed = JSON.parse(id) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as ManagedFieldsEntry;
  } catch {
    // not an identifier: a bare name
  }
  return { manager: id };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-apply write of `managedFields: [{}]`: the request resets them (k8s isResetManagedFields). */
export function isResetManagedFields(entries: unknown): boolean {
  return (
    Array.isArray(entries) &&
    entries.length === 1 &&
    isRecord(entries[0]) &&
    Object.keys(entries[0]).length === 0
  );
}

/** k8s DecodeManagedFields: throws naming the entry that cannot be read. */
export function decodeManagedFields(entries: unknown): Managed {
  const managed = new Managed();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new Error('managedFields must be a list');
  entries.forEach((raw, i) => {
    if (!isRecord(raw)) throw new Error(`managed fields entry ${i} is not an object`);
    const e = raw as ManagedFieldsEntry;
    if (e.operation !== 'Apply' && e.operation !== 'Update')
      throw new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new Error('apiVersion must not be empty');
    if (!e.fieldsType) throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1')
      throw new Error(
        `invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`
      );
    const id = buildManagerIdentifier(e);
    const set = setFromFieldsV1(e.fieldsV1 ?? {});
    managed.fields.set(id, newVersionedSet(set, e.apiVersion, e.operation === 'Apply'));
    managed.times.set(id, e.time);
  });
  return managed;
}

const seconds = (t: string | undefined): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);

/** k8s encodeManagedFields and sortEncodedManagedFields. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const ident = parseManagerIdentifier(id);
    const e: ManagedFieldsEntry = {};
    if (ident.manager) e.manager = ident.manager;
    e.operation = vs.applied ? 'Apply' : 'Update';
    e.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = setToFieldsV1(vs.set);
    if (ident.subresource) e.subresource = ident.subresource;
    out.push(e);
  }
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort(
    (p, q) =>
      cmp(p.operation ?? '', q.operation ?? '') ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager ?? '', q.manager ?? '') ||
      cmp(p.apiVersion ?? '', q.apiVersion ?? '') ||
      cmp(p.subresource ?? '', q.subresource ?? '')
  );
}

/**
 * Sets metadata.managedFields (none when empty, as upstream's encoder leaves it nil), in the
 * place the key already has, so that an unchanged object serializes as it was stored.
 */
export function setObjectManagedFields(obj: ApiObject, managed: Managed): void {
  const entries = encodeManagedFields(managed);
  if (entries.length === 0) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = entries;
}

/** k8s RemoveObjectManagedFields. */
export function removeObjectManagedFields(obj: ApiObject): void {
  if (isRecord(obj.metadata)) delete obj.metadata.managedFields;
}
