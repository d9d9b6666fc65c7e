// Every flag of the authorizer service is described in its section of docs/operating.md, so the page
// operators read cannot fall behind the flags the service takes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undocumentedFlags } from '@orch/testing/docs';
import { authorizerFlags } from './options.js';

test('authorizer flags: each one in docs/operating.md under "## authorizer"', () => {
  assert.deepEqual(undocumentedFlags('authorizer', authorizerFlags), []);
});
