// The gateway's registration file against the one list: it registers every plugin the list
// places in the gateway and no other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pluginsPlacedIn } from '@orch/apimachinery/admission';
import { newGatewayPlugins } from './plugins.js';

test('registration: every plugin the list places in the gateway, and only those', () => {
  assert.deepEqual(newGatewayPlugins().registered(), pluginsPlacedIn('gateway'));
});
