// Every flag of the admission service is described in its section of docs/operating.md, so the page
// operators read cannot fall behind the flags the service takes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undocumentedFlags } from '@orch/testing/docs';
import { admissionFlags } from './options.js';

test('admission flags: each one in docs/operating.md under "## admission"', () => {
  assert.deepEqual(undocumentedFlags('admission', admissionFlags), []);
});
