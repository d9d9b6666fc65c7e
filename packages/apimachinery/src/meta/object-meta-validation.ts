// Object metadata validated as k8s.io/apimachinery/pkg/api/validation/objectmeta.go does it
// (ValidateObjectMetaAccessor, ValidateObjectMetaAccessorUpdate, ValidateOwnerReferences,
// ValidateFinalizers) and apis/meta/v1/validation (ValidateLabels, ValidateManagedFields), for
// every kind, stored or custom. The metadata is untrusted input: a field of the wrong type is a
// field error ("must be of type string"), never a crash. Paths and messages are upstream's.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  fieldTooLong,
  newPath,
} from '../errors/field-errors.js';
import type { FieldPath } from '../errors/field-errors.js';
import type { FieldError } from '../errors/status-error.js';
import {
  isDNS1123Label,
  isQualifiedName,
  validateAnnotations,
  validateLabels,
  validateObjectName,
} from './name-validation.js';
import type { ObjectNameRule } from './name-validation.js';

/** k8s `FieldImmutableErrorMsg`. */
export const fieldImmutableErrorMsg = 'field is immutable';
/** k8s `IsNegativeErrorMsg`. */
export const isNegativeErrorMsg = 'must be greater than or equal to 0';
/** k8s `storage.ErrResourceVersionSetOnCreate`. */
export const resourceVersionSetOnCreateMsg =
  'resourceVersion should not be set on objects to be created';
/** The warning k8s gives for a finalizer name without a path (`example.com/name`). */
export const finalizerNameWarningMsg =
  'prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts ' +
  'with other finalizer writers';

/** k8s `FieldManagerMaxLength`. */
const fieldManagerMaxLength = 128;
/** k8s `MaxSubresourceNameLength`. */
const maxSubresourceNameLength = 256;
/** metav1.FinalizerOrphanDependents and FinalizerDeleteDependents. */
const finalizerOrphanDependents = 'orphan';
const finalizerDeleteDependents = 'foregroundDeletion';
/** Finalizer names that need no domain (k8s `IsStandardFinalizerName`, the unqualified ones). */
const standardFinalizerNames = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);
/** k8s `BannedOwners`: kinds that may not own objects. */
const bannedOwners = new Set(['v1/Event']);

export interface ObjectMetaValidationOptions {
  /** Whether the kind is namespaced: then a namespace is required, else forbidden. */
  readonly namespaced: boolean;
  /** How names (and generateName prefixes) are checked, per kind. */
  readonly nameRule: ObjectNameRule;
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Reads metadata fields, reporting a value of the wrong type once (as decoding would). */
class Reader {
  readonly errs: FieldError[] = [];
  constructor(
    readonly meta: Rec,
    readonly path: FieldPath
  ) {}

  /** A string field: '' when absent, undefined when of another type (reported). */
  string(name: string): string | undefined {
    return this.typed(this.meta[name], this.path.child(name), 'string');
  }

  integer(name: string): number | undefined {
    return this.typed(this.meta[name], this.path.child(name), 'integer');
  }

  typed<T extends 'string' | 'integer' | 'boolean'>(
    value: unknown,
    path: FieldPath,
    type: T
  ): (T extends 'string' ? string : T extends 'integer' ? number : boolean) | undefined {
    type R = T extends 'string' ? string : T extends 'integer' ? number : boolean;
    if (value === undefined || value === null) return (type === 'string' ? '' : undefined) as R;
    const ok =
      type === 'integer'
        ? typeof value === 'number' && Number.isSafeInteger(value)
        : typeof value === type;
    if (ok) return value as R;
    this.errs.push(fieldInvalid(path, value, `must be of type ${type}`));
    return undefined;
  }

  /** A map of strings: undefined when absent or of another type (reported). */
  stringMap(name: string): Record<string, string> | undefined {
    const value = this.meta[name];
    const path = this.path.child(name);
    if (value === undefined || value === null) return undefined;
    if (!isRecord(value)) {
      this.errs.push(fieldInvalid(path, value, 'must be of type object'));
      return undefined;
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) {
      const s = this.typed(v, path.key(k), 'string');
      if (s !== undefined) out[k] = s;
    }
    return out;
  }

  /** A list: undefined when absent or of another type (reported). */
  list(name: string): unknown[] | undefined {
    const value = this.meta[name];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) {
      this.errs.push(fieldInvalid(this.path.child(name), value, 'must be of type array'));
      return undefined;
    }
    return value;
  }
}

/** The metadata as a record, or the error saying it is not an object. */
function asMeta(meta: unknown, path: FieldPath): { meta: Rec } | { error: FieldError } {
  if (meta === undefined || meta === null) return { meta: {} };
  return isRecord(meta) ? { meta } : { error: fieldInvalid(path, meta, 'must be of type object') };
}

/**
 * k8s `ValidateObjectMetaAccessor`: an object's metadata on create, after name generation:
 * generateName and name by the kind's rule, namespace required (namespaced) or forbidden,
 * generation, labels, annotations, ownerReferences, finalizers and managedFields.
 */
export function validateObjectMeta(
  meta: unknown,
  opts: ObjectMetaValidationOptions,
  path: FieldPath = newPath('metadata')
): FieldError[] {
  const m = asMeta(meta, path);
  if ('error' in m) return [m.error];
  const r = new Reader(m.meta, path);
  const errs = r.errs;
  const generateName = r.string('generateName');
  if (generateName) {
    for (const msg of validateObjectName(generateName, opts.nameRule, { prefix: true })) {
      errs.push(fieldInvalid(path.child('generateName'), generateName, msg));
    }
  }
  const name = r.string('name');
  if (name === '') {
    errs.push(fieldRequired(path.child('name'), 'name or generateName is required'));
  } else if (name !== undefined) {
    for (const msg of validateObjectName(name, opts.nameRule)) {
      errs.push(fieldInvalid(path.child('name'), name, msg));
    }
  }
  const namespace = r.string('namespace');
  if (opts.namespaced) {
    if (namespace === '') {
      errs.push(fieldRequired(path.child('namespace')));
    } else if (namespace !== undefined) {
      for (const msg of isDNS1123Label(namespace)) {
        errs.push(fieldInvalid(path.child('namespace'), namespace, msg));
      }
    }
  } else if (namespace) {
    errs.push(fieldForbidden(path.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateNonnegative(r.integer('generation'), path.child('generation')));
  errs.push(...validateCommon(r));
  errs.push(...validateFinalizers(r.list('finalizers'), path.child('finalizers'), r));
  return errs;
}

/**
 * What a client may not set on create and upstream refuses rather than clears:
 * `resourceVersion` (k8s `storage.ErrResourceVersionSetOnCreate`). uid, creationTimestamp,
 * deletionTimestamp and deletionGracePeriodSeconds are overwritten by the store, as upstream's
 * `BeforeCreate` and `FillObjectMetaSystemFields` do.
 */
export function validateObjectMetaCreate(
  meta: unknown,
  path: FieldPath = newPath('metadata')
): FieldError[] {
  if (!isRecord(meta)) return [];
  const rv = meta['resourceVersion'];
  if (rv === undefined || rv === null || rv === '') return [];
  return [fieldInvalid(path.child('resourceVersion'), rv, resourceVersionSetOnCreateMsg)];
}

/**
 * k8s `ValidateObjectMetaAccessorUpdate`: no new finalizers once deleting, a resourceVersion,
 * generation not decremented, name, namespace, uid, creationTimestamp, deletionTimestamp and
 * deletionGracePeriodSeconds unchanged, then labels, annotations, ownerReferences and
 * managedFields. (Upstream's update path also runs `validateObjectMeta` on the new object.)
 */
export function validateObjectMetaUpdate(
  newMeta: unknown,
  oldMeta: unknown,
  path: FieldPath = newPath('metadata')
): FieldError[] {
  const checked = asMeta(newMeta, path);
  if ('error' in checked) return [checked.error];
  const n = checked.meta;
  const o = isRecord(oldMeta) ? oldMeta : {};
  const r = new Reader(n, path);
  const errs = r.errs;
  if (o['deletionTimestamp']) {
    const oldFinalizers = new Set(strings(o['finalizers']));
    const extra = [...new Set(strings(n['finalizers']))].filter((f) => !oldFinalizers.has(f));
    if (extra.length > 0) {
      extra.sort();
      const list = `[]string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`;
      errs.push(
        fieldForbidden(
          path.child('finalizers'),
          'no new finalizers can be added if the object is being deleted, ' +
            `found new finalizers ${list}`
        )
      );
    }
  }
  const rv = r.string('resourceVersion');
  if (rv === '') {
    errs.push(fieldInvalid(path.child('resourceVersion'), rv, 'must be specified for an update'));
  }
  const generation = r.integer('generation');
  errs.push(...validateNonnegative(generation, path.child('generation')));
  const oldGeneration = typeof o['generation'] === 'number' ? o['generation'] : 0;
  if (generation !== undefined && generation < oldGeneration) {
    errs.push(fieldInvalid(path.child('generation'), generation, 'must not be decremented'));
  }
  for (const f of ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp']) {
    if ((n[f] ?? '') !== (o[f] ?? '')) {
      errs.push(fieldInvalid(path.child(f), n[f] ?? '', fieldImmutableErrorMsg));
    }
  }
  const grace = 'deletionGracePeriodSeconds';
  if ((n[grace] ?? null) !== (o[grace] ?? null)) {
    errs.push(fieldInvalid(path.child(grace), n[grace] ?? null, fieldImmutableErrorMsg));
  }
  errs.push(...validateCommon(r));
  return errs;
}

/**
 * The warnings upstream gives for valid metadata: one per finalizer name without a path
 * (`metadata.finalizers: "name": prefer a domain-qualified finalizer name ...`), except the
 * standard unqualified ones (`kubernetes`, `orphan`, `foregroundDeletion`).
 */
export function warningsForObjectMeta(
  meta: unknown,
  path: FieldPath = newPath('metadata')
): string[] {
  if (!isRecord(meta)) return [];
  const fin = path.child('finalizers').toString();
  return strings(meta['finalizers'])
    .filter((f) => !f.includes('/') && !standardFinalizerNames.has(f))
    .filter((f) => isQualifiedName(f).length === 0)
    .map((f) => `${fin}: ${JSON.stringify(f)}: ${finalizerNameWarningMsg}`);
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** k8s `ValidateNonnegativeField`. */
function validateNonnegative(value: number | undefined, path: FieldPath): FieldError[] {
  return value !== undefined && value < 0 ? [fieldInvalid(path, value, isNegativeErrorMsg)] : [];
}

/** Labels, annotations, ownerReferences and managedFields: on create and on update. */
function validateCommon(r: Reader): FieldError[] {
  const path = r.path;
  return [
    ...validateLabels(r.stringMap('labels'), path.child('labels')),
    ...validateAnnotations(r.stringMap('annotations'), path.child('annotations')),
    ...validateOwnerReferences(r.list('ownerReferences'), path.child('ownerReferences'), r),
    ...validateManagedFields(r.list('managedFields'), path.child('managedFields'), r),
  ];
}

/** k8s `ValidateFinalizers`: qualified names, and not both orphan and foregroundDeletion. */
function validateFinalizers(list: unknown[] | undefined, path: FieldPath, r: Reader): FieldError[] {
  const errs: FieldError[] = [];
  const names: string[] = [];
  (list ?? []).forEach((item, i) => {
    const f = r.typed(item, path.index(i), 'string');
    if (f === undefined) return;
    names.push(f);
    for (const msg of isQualifiedName(f)) errs.push(fieldInvalid(path, f, msg));
  });
  if (names.includes(finalizerOrphanDependents) && names.includes(finalizerDeleteDependents)) {
    errs.push(
      fieldInvalid(
        path,
        list,
        `finalizer ${finalizerOrphanDependents} and ${finalizerDeleteDependents} cannot be both set`
      )
    );
  }
  return errs;
}

/** Go's `schema.ParseGroupVersion` then a non-empty version. */
function validApiVersion(apiVersion: string): boolean {
  const parts = apiVersion.split('/');
  if (parts.length > 2) return false;
  return (parts[parts.length - 1] ?? '') !== '';
}

/** k8s `ValidateOwnerReferences`: required fields, banned owners, at most one controller. */
function validateOwnerReferences(
  list: unknown[] | undefined,
  path: FieldPath,
  r: Reader
): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  (list ?? []).forEach((item, i) => {
    const p = path.index(i);
    if (!isRecord(item)) {
      errs.push(fieldInvalid(p, item, 'must be of type object'));
      return;
    }
    const apiVersion = r.typed(item['apiVersion'], p.child('apiVersion'), 'string');
    const kind = r.typed(item['kind'], p.child('kind'), 'string');
    const name = r.typed(item['name'], p.child('name'), 'string');
    const uid = r.typed(item['uid'], p.child('uid'), 'string');
    const controller = r.typed(item['controller'], p.child('controller'), 'boolean');
    r.typed(item['blockOwnerDeletion'], p.child('blockOwnerDeletion'), 'boolean');
    if (apiVersion === '') {
      errs.push(fieldRequired(p.child('apiVersion'), 'must not be empty'));
    } else if (apiVersion !== undefined && !validApiVersion(apiVersion)) {
      const msg = 'must be <group>/<version> or <version>';
      errs.push(fieldInvalid(p.child('apiVersion'), apiVersion, msg));
    }
    if (kind === '') errs.push(fieldRequired(p.child('kind'), 'must not be empty'));
    if (name === '') errs.push(fieldRequired(p.child('name'), 'must not be empty'));
    if (uid === '') errs.push(fieldRequired(p.child('uid'), 'must not be empty'));
    if (apiVersion !== undefined && kind !== undefined) {
      const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
      const [group = '', version = ''] = gv.split('/');
      const gvk = `${group ? `${group}/` : ''}${version}/${kind}`;
      if (bannedOwners.has(gvk)) {
        const goGvk = `${group}/${version}, Kind=${kind}`;
        errs.push(fieldInvalid(p, item, `${goGvk} is disallowed from being an owner`));
      }
    }
    if (controller === true) {
      const current = `${kind ?? ''}/${name ?? ''}`;
      if (firstController !== '') {
        errs.push(
          fieldInvalid(
            path,
            list,
            'Only one reference can have Controller set to true. ' +
              `Found "true" in references for ${firstController} and ${current}`
          )
        );
      } else {
        firstController = current;
      }
    }
  });
  return errs;
}

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and ASCII space. */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** k8s `ValidateManagedFields` and `ValidateFieldManager`. */
function validateManagedFields(
  list: unknown[] | undefined,
  path: FieldPath,
  r: Reader
): FieldError[] {
  const errs: FieldError[] = [];
  (list ?? []).forEach((item, i) => {
    const p = path.index(i);
    if (!isRecord(item)) {
      errs.push(fieldInvalid(p, item, 'must be of type object'));
      return;
    }
    const operation = r.typed(item['operation'], p.child('operation'), 'string');
    if (operation === '') {
      errs.push(fieldRequired(p.child('operation'), 'must not be empty'));
    } else if (operation !== undefined && operation !== 'Apply' && operation !== 'Update') {
      errs.push(fieldNotSupported(p.child('operation'), operation, ['Apply', 'Update']));
    }
    const fieldsType = r.typed(item['fieldsType'], p.child('fieldsType'), 'string');
    if (fieldsType && fieldsType !== 'FieldsV1') {
      errs.push(fieldInvalid(p.child('fieldsType'), fieldsType, 'must be `FieldsV1`'));
    }
    const manager = r.typed(item['manager'], p.child('manager'), 'string');
    if (manager !== undefined) {
      if (byteLength(manager) > fieldManagerMaxLength) {
        errs.push(fieldTooLong(p.child('manager'), fieldManagerMaxLength));
      }
      let at = 0;
      for (const ch of manager) {
        if (!printable.test(ch)) {
          const cp = ch.codePointAt(0) ?? 0;
          const u = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
          const msg = `invalid character ${u} (at position ${at})`;
          errs.push(fieldInvalid(p.child('manager'), manager, msg));
        }
        at += byteLength(ch);
      }
    }
    const subresource = r.typed(item['subresource'], p.child('subresource'), 'string');
    if (subresource !== undefined && byteLength(subresource) > maxSubresourceNameLength) {
      errs.push(fieldTooLong(p.child('subresource'), maxSubresourceNameLength));
    }
    r.typed(item['apiVersion'], p.child('apiVersion'), 'string');
    r.typed(item['time'], p.child('time'), 'string');
    const fieldsV1 = item['fieldsV1'];
    if (fieldsV1 !== undefined && fieldsV1 !== null && !isRecord(fieldsV1)) {
      errs.push(fieldInvalid(p.child('fieldsV1'), fieldsV1, 'must be of type object'));
    }
  });
  return errs;
}
