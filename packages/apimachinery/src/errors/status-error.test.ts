// The details of a Status as upstream writes them: metav1.StatusDetails has `name`, `group`,
// `kind` and `uid` as omitempty, so a list's empty name and the core group's empty name are
// absent from the JSON, not empty strings (k8s api/errors NewForbidden, NewNotFound, NewInvalid,
// NewGenericServerResponse).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  newForbidden,
  newInvalid,
  newNotFound,
  newSuccess,
  newUnprocessableEntity,
} from './status-error.js';

test('details leave out an empty name, group or kind (upstream omitempty)', () => {
  const rows: [string, unknown, unknown][] = [
    [
      'forbidden on a list: no name',
      newForbidden({ group: 'monitoring.coreos.com', resource: 'servicemonitors' }, '', 'no').status
        .details,
      { group: 'monitoring.coreos.com', kind: 'servicemonitors' },
    ],
    [
      'not found in the core group: no group',
      newNotFound({ group: '', resource: 'configmaps' }, 'settings').status.details,
      { name: 'settings', kind: 'configmaps' },
    ],
    [
      'invalid in the core group keeps its causes',
      newInvalid({ group: '', kind: 'Pod' }, 'p', [
        { type: 'FieldValueRequired', field: 'spec', message: '' },
      ]).status.details,
      {
        name: 'p',
        kind: 'Pod',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec' }],
      },
    ],
    [
      'a patch that does not apply: causes only',
      newUnprocessableEntity('no such path').status.details,
      { causes: [{ reason: 'UnexpectedServerResponse', message: 'no such path' }] },
    ],
    [
      'a success naming an object of the core group',
      newSuccess({ name: 'p', group: '', kind: 'pods', uid: 'u-1' }).details,
      { name: 'p', kind: 'pods', uid: 'u-1' },
    ],
  ];
  for (const [name, got, want] of rows) assert.deepEqual(got, want, name);
});

test('the message still names the empty parts as upstream does', () => {
  assert.equal(
    newForbidden({ group: '', resource: 'configmaps' }, '', 'User "dave" cannot list').message,
    'configmaps is forbidden: User "dave" cannot list'
  );
});
