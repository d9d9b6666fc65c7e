// Every flag of the controllers service is described in its section of docs/operating.md, so the page
// operators read cannot fall behind the flags the service takes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undocumentedFlags } from '@orch/testing/docs';
import { controllersFlags } from './options.js';

test('controllers flags: each one in docs/operating.md under "## controllers"', () => {
  assert.deepEqual(undocumentedFlags('controllers', controllersFlags), []);
});
