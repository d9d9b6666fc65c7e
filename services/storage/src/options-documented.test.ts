// Every flag of the storage service is described in its section of docs/operating.md, so the page
// operators read cannot fall behind the flags the service takes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undocumentedFlags } from '@orch/testing/docs';
import { storageFlags } from './options.js';

test('storage flags: each one in docs/operating.md under "## storage"', () => {
  assert.deepEqual(undocumentedFlags('storage', storageFlags), []);
});
