// Table tests of object metadata validation: one named row per rule, asserting upstream's
// field path, cause type and message (k8s api/validation/objectmeta_test.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '../errors/status-error.js';
import {
  validateObjectMeta,
  validateObjectMetaCreate,
  validateObjectMetaUpdate,
  warningsForObjectMeta,
} from './object-meta-validation.js';
import type { ObjectMetaValidationOptions } from './object-meta-validation.js';

const qnameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end " +
  "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for " +
  "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or " +
  "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used " +
  "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and " +
  "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex " +
  "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or " +
  "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or " +
  "'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?" +
  "[A-Za-z0-9])?')";

/** `field: Type: message`, the parts a client sees in a cause. */
const show = (errs: FieldError[]): string[] =>
  errs.map((e) => `${e.field}: ${e.type}: ${e.message}`);

const namespaced: ObjectMetaValidationOptions = { namespaced: true, nameRule: 'subdomain' };
const cluster: ObjectMetaValidationOptions = { namespaced: false, nameRule: 'subdomain' };
const ok = { name: 'a', namespace: 'ns' };
const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1' };
const managed = { manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1' };

interface CreateRow {
  name: string;
  meta: unknown;
  opts?: ObjectMetaValidationOptions;
  want: string[];
}

const createRows: CreateRow[] = [
  { name: 'valid minimal metadata', meta: ok, want: [] },
  {
    name: 'valid full metadata',
    meta: {
      ...ok,
      generateName: 'a-',
      labels: { app: 'web', 'example.com/tier': '' },
      annotations: { 'Example.com/Note': 'x' },
      finalizers: ['example.com/cleanup', 'kubernetes'],
      ownerReferences: [{ ...owner, controller: true, blockOwnerDeletion: true }],
      managedFields: [managed],
      generation: 3,
    },
    want: [],
  },
  {
    name: 'name missing',
    meta: { namespace: 'ns' },
    want: ['metadata.name: FieldValueRequired: name or generateName is required'],
  },
  {
    name: 'name not a subdomain',
    meta: { ...ok, name: 'Bad_Name' },
    want: [`metadata.name: FieldValueInvalid: ${subdomainMsg}`],
  },
  {
    name: 'name not a label for a label-named kind',
    meta: { ...ok, name: 'a.b' },
    opts: { namespaced: true, nameRule: 'label' },
    want: ['metadata.name: FieldValueInvalid: must not contain dots'],
  },
  {
    name: 'name of the wrong type',
    meta: { ...ok, name: 5 },
    want: ['metadata.name: FieldValueInvalid: must be of type string'],
  },
  {
    name: 'generateName prefix may end in a dash',
    meta: { ...ok, generateName: 'web-' },
    want: [],
  },
  {
    name: 'generateName invalid',
    meta: { ...ok, generateName: 'Web_' },
    want: [`metadata.generateName: FieldValueInvalid: ${subdomainMsg}`],
  },
  {
    name: 'namespace required on a namespaced kind',
    meta: { name: 'a' },
    want: ['metadata.namespace: FieldValueRequired: '],
  },
  {
    name: 'namespace not a label',
    meta: { name: 'a', namespace: 'a.b' },
    want: ['metadata.namespace: FieldValueInvalid: must not contain dots'],
  },
  {
    name: 'namespace forbidden on a cluster-scoped kind',
    meta: { name: 'a', namespace: 'ns' },
    opts: cluster,
    want: ['metadata.namespace: FieldValueForbidden: not allowed on this type'],
  },
  {
    name: 'generation negative',
    meta: { ...ok, generation: -1 },
    want: ['metadata.generation: FieldValueInvalid: must be greater than or equal to 0'],
  },
  {
    name: 'generation not an integer',
    meta: { ...ok, generation: 1.5 },
    want: ['metadata.generation: FieldValueInvalid: must be of type integer'],
  },
  {
    name: 'label key invalid',
    meta: { ...ok, labels: { 'bad key': 'v' } },
    want: [`metadata.labels: FieldValueInvalid: ${qnameMsg}`],
  },
  {
    name: 'label key prefix invalid',
    meta: { ...ok, labels: { 'Example.com/x': 'v' } },
    want: [`metadata.labels: FieldValueInvalid: prefix part ${subdomainMsg}`],
  },
  {
    name: 'label value too long',
    meta: { ...ok, labels: { a: 'v'.repeat(64) } },
    want: ['metadata.labels: FieldValueInvalid: must be no more than 63 characters'],
  },
  {
    name: 'label value invalid',
    meta: { ...ok, labels: { a: '-v' } },
    want: [`metadata.labels: FieldValueInvalid: ${labelValueMsg}`],
  },
  {
    name: 'label value of the wrong type',
    meta: { ...ok, labels: { a: 1 } },
    want: ['metadata.labels[a]: FieldValueInvalid: must be of type string'],
  },
  {
    name: 'labels not a map',
    meta: { ...ok, labels: ['a'] },
    want: ['metadata.labels: FieldValueInvalid: must be of type object'],
  },
  {
    name: 'annotation key invalid',
    meta: { ...ok, annotations: { 'a b': '' } },
    want: [`metadata.annotations: FieldValueInvalid: ${qnameMsg}`],
  },
  {
    name: 'annotations at 256 KiB in total',
    meta: { ...ok, annotations: { a: 'x'.repeat(256 * 1024 - 1) } },
    want: [],
  },
  {
    name: 'annotations past 256 KiB in total',
    meta: { ...ok, annotations: { a: 'x'.repeat(128 * 1024), b: 'x'.repeat(128 * 1024) } },
    want: ['metadata.annotations: FieldValueTooLong: may not be more than 262144 bytes'],
  },
  {
    name: 'finalizer not a qualified name',
    meta: { ...ok, finalizers: ['Bad Finalizer'] },
    want: [`metadata.finalizers: FieldValueInvalid: ${qnameMsg}`],
  },
  {
    name: 'finalizer of the wrong type',
    meta: { ...ok, finalizers: ['example.com/a', 7] },
    want: ['metadata.finalizers[1]: FieldValueInvalid: must be of type string'],
  },
  {
    name: 'finalizers not a list',
    meta: { ...ok, finalizers: 'example.com/a' },
    want: ['metadata.finalizers: FieldValueInvalid: must be of type array'],
  },
  {
    name: 'finalizers orphan and foregroundDeletion together',
    meta: { ...ok, finalizers: ['orphan', 'foregroundDeletion'] },
    want: [
      'metadata.finalizers: FieldValueInvalid: ' +
        'finalizer orphan and foregroundDeletion cannot be both set',
    ],
  },
  {
    name: 'duplicate finalizers are allowed, as upstream',
    meta: { ...ok, finalizers: ['example.com/a', 'example.com/a'] },
    want: [],
  },
  {
    name: 'ownerReference missing apiVersion, kind, name and uid',
    meta: { ...ok, ownerReferences: [{}] },
    want: [
      'metadata.ownerReferences[0].apiVersion: FieldValueRequired: must not be empty',
      'metadata.ownerReferences[0].kind: FieldValueRequired: must not be empty',
      'metadata.ownerReferences[0].name: FieldValueRequired: must not be empty',
      'metadata.ownerReferences[0].uid: FieldValueRequired: must not be empty',
    ],
  },
  {
    name: 'ownerReference uid missing',
    meta: { ...ok, ownerReferences: [owner, { ...owner, uid: '' }] },
    want: ['metadata.ownerReferences[1].uid: FieldValueRequired: must not be empty'],
  },
  {
    name: 'ownerReference apiVersion malformed',
    meta: { ...ok, ownerReferences: [{ ...owner, apiVersion: 'a/b/c' }] },
    want: [
      'metadata.ownerReferences[0].apiVersion: FieldValueInvalid: ' +
        'must be <group>/<version> or <version>',
    ],
  },
  {
    name: 'ownerReference to a banned owner kind',
    meta: { ...ok, ownerReferences: [{ ...owner, apiVersion: 'v1', kind: 'Event' }] },
    want: [
      'metadata.ownerReferences[0]: FieldValueInvalid: ' +
        '/v1, Kind=Event is disallowed from being an owner',
    ],
  },
  {
    name: 'ownerReference field of the wrong type',
    meta: { ...ok, ownerReferences: [{ ...owner, uid: 3, controller: 'yes' }] },
    want: [
      'metadata.ownerReferences[0].uid: FieldValueInvalid: must be of type string',
      'metadata.ownerReferences[0].controller: FieldValueInvalid: must be of type boolean',
    ],
  },
  {
    name: 'ownerReference not an object',
    meta: { ...ok, ownerReferences: ['rs'] },
    want: ['metadata.ownerReferences[0]: FieldValueInvalid: must be of type object'],
  },
  {
    name: 'two controllers',
    meta: {
      ...ok,
      ownerReferences: [
        { ...owner, controller: true },
        { ...owner, name: 'rs2', uid: 'u2', controller: true },
      ],
    },
    want: [
      'metadata.ownerReferences: FieldValueInvalid: Only one reference can have Controller set ' +
        'to true. Found "true" in references for ReplicaSet/rs and ReplicaSet/rs2',
    ],
  },
  {
    name: 'managedFields operation missing',
    meta: { ...ok, managedFields: [{ manager: 'm' }] },
    want: ['metadata.managedFields[0].operation: FieldValueRequired: must not be empty'],
  },
  {
    name: 'managedFields operation unsupported',
    meta: { ...ok, managedFields: [{ ...managed, operation: 'Patch' }] },
    want: [
      'metadata.managedFields[0].operation: FieldValueNotSupported: ' +
        'supported values: "Apply", "Update"',
    ],
  },
  {
    name: 'managedFields fieldsType not FieldsV1',
    meta: { ...ok, managedFields: [{ ...managed, fieldsType: 'FieldsV2' }] },
    want: ['metadata.managedFields[0].fieldsType: FieldValueInvalid: must be `FieldsV1`'],
  },
  {
    name: 'managedFields manager too long',
    meta: { ...ok, managedFields: [{ ...managed, manager: 'm'.repeat(129) }] },
    want: ['metadata.managedFields[0].manager: FieldValueTooLong: may not be more than 128 bytes'],
  },
  {
    name: 'managedFields manager with a control character',
    meta: { ...ok, managedFields: [{ ...managed, manager: 'ab\u0007' }] },
    want: [
      'metadata.managedFields[0].manager: FieldValueInvalid: ' +
        'invalid character U+0007 (at position 2)',
    ],
  },
  {
    name: 'managedFields subresource too long',
    meta: { ...ok, managedFields: [{ ...managed, subresource: 's'.repeat(257) }] },
    want: [
      'metadata.managedFields[0].subresource: FieldValueTooLong: may not be more than 256 bytes',
    ],
  },
  {
    name: 'metadata not an object',
    meta: 'name',
    want: ['metadata: FieldValueInvalid: must be of type object'],
  },
];

for (const row of createRows) {
  test(`validateObjectMeta: ${row.name}`, () => {
    assert.deepEqual(show(validateObjectMeta(row.meta, row.opts ?? namespaced)), row.want);
  });
}

const createOnlyRows: { name: string; meta: unknown; want: string[] }[] = [
  { name: 'no resourceVersion', meta: ok, want: [] },
  { name: 'empty resourceVersion', meta: { ...ok, resourceVersion: '' }, want: [] },
  ...['abc', '-1', '12345678901234567890', 7].map((rv) => ({
    name: `resourceVersion ${JSON.stringify(rv)} set`,
    meta: { ...ok, resourceVersion: rv },
    want: [
      'metadata.resourceVersion: FieldValueInvalid: ' +
        'resourceVersion should not be set on objects to be created',
    ],
  })),
];

for (const row of createOnlyRows) {
  test(`validateObjectMetaCreate: ${row.name}`, () => {
    assert.deepEqual(show(validateObjectMetaCreate(row.meta)), row.want);
  });
}

const old = {
  name: 'a',
  namespace: 'ns',
  uid: 'u1',
  resourceVersion: '5',
  generation: 2,
  creationTimestamp: '2024-01-01T00:00:00Z',
};

const updateRows: { name: string; meta: unknown; old?: unknown; want: string[] }[] = [
  { name: 'unchanged', meta: old, want: [] },
  {
    name: 'resourceVersion missing',
    meta: { ...old, resourceVersion: '' },
    want: ['metadata.resourceVersion: FieldValueInvalid: must be specified for an update'],
  },
  {
    name: 'generation decremented',
    meta: { ...old, generation: 1 },
    want: ['metadata.generation: FieldValueInvalid: must not be decremented'],
  },
  {
    name: 'generation negative',
    meta: { ...old, generation: -1 },
    want: [
      'metadata.generation: FieldValueInvalid: must be greater than or equal to 0',
      'metadata.generation: FieldValueInvalid: must not be decremented',
    ],
  },
  ...(['name', 'namespace', 'uid', 'creationTimestamp'] as const).map((f) => ({
    name: `${f} changed`,
    meta: { ...old, [f]: f === 'creationTimestamp' ? '2025-01-01T00:00:00Z' : 'other' },
    want: [`metadata.${f}: FieldValueInvalid: field is immutable`],
  })),
  {
    name: 'deletionTimestamp set by a client',
    meta: { ...old, deletionTimestamp: '2025-01-01T00:00:00Z' },
    want: ['metadata.deletionTimestamp: FieldValueInvalid: field is immutable'],
  },
  {
    name: 'deletionGracePeriodSeconds set by a client',
    meta: { ...old, deletionGracePeriodSeconds: 30 },
    want: ['metadata.deletionGracePeriodSeconds: FieldValueInvalid: field is immutable'],
  },
  {
    name: 'new finalizer while deleting',
    old: { ...old, deletionTimestamp: 'x', finalizers: ['example.com/a'] },
    meta: { ...old, deletionTimestamp: 'x', finalizers: ['example.com/a', 'example.com/b'] },
    want: [
      'metadata.finalizers: FieldValueForbidden: no new finalizers can be added if the object ' +
        'is being deleted, found new finalizers []string{"example.com/b"}',
    ],
  },
  {
    name: 'finalizer removed while deleting',
    old: { ...old, deletionTimestamp: 'x', finalizers: ['example.com/a'] },
    meta: { ...old, deletionTimestamp: 'x', finalizers: [] },
    want: [],
  },
  {
    name: 'labels checked on update too',
    meta: { ...old, labels: { a: '-' } },
    want: [`metadata.labels: FieldValueInvalid: ${labelValueMsg}`],
  },
  {
    name: 'ownerReferences checked on update too',
    meta: { ...old, ownerReferences: [{ ...owner, kind: '' }] },
    want: ['metadata.ownerReferences[0].kind: FieldValueRequired: must not be empty'],
  },
];

for (const row of updateRows) {
  test(`validateObjectMetaUpdate: ${row.name}`, () => {
    assert.deepEqual(show(validateObjectMetaUpdate(row.meta, row.old ?? old)), row.want);
  });
}

const warningRows: { name: string; finalizers: unknown; want: string[] }[] = [
  { name: 'qualified finalizer', finalizers: ['example.com/cleanup'], want: [] },
  {
    name: 'standard finalizers',
    finalizers: ['kubernetes', 'orphan', 'foregroundDeletion'],
    want: [],
  },
  {
    name: 'finalizer without a domain',
    finalizers: ['cleanup'],
    want: [
      'metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name including a path ' +
        '(/) to avoid accidental conflicts with other finalizer writers',
    ],
  },
  {
    name: 'finalizer with a domain but no path',
    finalizers: ['cleanup.example.com'],
    want: [
      'metadata.finalizers: "cleanup.example.com": prefer a domain-qualified finalizer name ' +
        'including a path (/) to avoid accidental conflicts with other finalizer writers',
    ],
  },
  { name: 'invalid finalizer is an error, not a warning', finalizers: ['Bad Finalizer'], want: [] },
  { name: 'finalizers of the wrong type', finalizers: 3, want: [] },
];

for (const row of warningRows) {
  test(`warningsForObjectMeta: ${row.name}`, () => {
    assert.deepEqual(warningsForObjectMeta({ ...ok, finalizers: row.finalizers }), row.want);
  });
}

test('validateObjectMeta: a label-named kind gets the label message', () => {
  const opts: ObjectMetaValidationOptions = { namespaced: true, nameRule: 'label' };
  const errs = validateObjectMeta({ name: 'A', namespace: 'ns' }, opts);
  assert.deepEqual(show(errs), [`metadata.name: FieldValueInvalid: ${labelMsg}`]);
});
