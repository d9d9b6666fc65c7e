// The storage contract against the in-memory storage: the same scenario and transcript as the
// storage service's memory-storage-contract.test.ts, which runs it over etcd.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryStorage } from './memory-storage.js';
import {
  storageContract,
  storageContractMaxObjectBytes,
  storageContractTranscript,
} from './storage-contract.js';

test('the in-memory storage answers the storage contract as the storage service does', async () => {
  const storage = new MemoryStorage({
    maxObjectBytes: storageContractMaxObjectBytes,
    revisionWaitMs: 100,
  });
  const steps = await storageContract(storage, async (revision) => storage.compact(revision));
  assert.deepEqual(steps, storageContractTranscript);
});
