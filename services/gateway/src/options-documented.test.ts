// Every flag of the gateway service is described in its section of docs/operating.md, so the page
// operators read cannot fall behind the flags the service takes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undocumentedFlags } from '@orch/testing/docs';
import { gatewayFlags } from './options.js';

test('gateway flags: each one in docs/operating.md under "## gateway"', () => {
  assert.deepEqual(undocumentedFlags('gateway', gatewayFlags), []);
});
