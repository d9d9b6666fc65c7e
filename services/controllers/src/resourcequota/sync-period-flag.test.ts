// The resource quota controller's --resource-quota-sync-period flag: 5 minutes by default, a Go
// duration otherwise, and a malformed or zero value stops the start naming the flag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controllersOptions } from '../options.js';

test('--resource-quota-sync-period: default, given, refused', () => {
  assert.equal(controllersOptions(['--kubeconfig=k']).resourceQuotaSyncMs, 300_000);
  assert.equal(
    controllersOptions(['--kubeconfig=k', '--resource-quota-sync-period=30s']).resourceQuotaSyncMs,
    30_000
  );
  assert.throws(
    () => controllersOptions(['--kubeconfig=k', '--resource-quota-sync-period=soon']),
    /--resource-quota-sync-period: invalid duration "soon"/
  );
  assert.throws(
    () => controllersOptions(['--kubeconfig=k', '--resource-quota-sync-period=0']),
    /--resource-quota-sync-period must be a positive duration/
  );
});
