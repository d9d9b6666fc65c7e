// Every flag of the certificates service is described in its section of docs/operating.md, so the page
// operators read cannot fall behind the flags the service takes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undocumentedFlags } from '@orch/testing/docs';
import { certificatesFlags } from './options.js';

test('certificates flags: each one in docs/operating.md under "## certificates"', () => {
  assert.deepEqual(undocumentedFlags('certificates', certificatesFlags), []);
});
