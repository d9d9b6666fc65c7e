// What the in-memory storage does beyond the contract's transcript: reads that wait for a
// revision, answers that are copies, compaction refused in the future.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryStorage } from './memory-storage.js';

const key = '/registry/core/configmaps/ns/a';
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } };

test('a not-older-than read waits for the write that reaches its revision (EtcdStore.waitForRevision)', async () => {
  const storage = new MemoryStorage({ revisionWaitMs: 2000 });
  const at = (await storage.currentRevision()) + 1;
  const read = storage.get(key, 'NOT_OLDER_THAN', at);
  setTimeout(() => void storage.create(key, cm), 20);
  const got = await read;
  assert.equal((got['metadata'] as { resourceVersion: string }).resourceVersion, String(at));
});

test('answers are copies: changing one changes nothing stored', async () => {
  const storage = new MemoryStorage();
  const created = await storage.create(key, { ...cm, data: { a: '1' } });
  (created['data'] as Record<string, string>)['a'] = 'changed';
  const listed = await storage.list({ prefix: '/registry/core/configmaps/', consistency: 'ANY' });
  (listed.items[0]!['data'] as Record<string, string>)['a'] = 'changed too';
  assert.deepEqual((await storage.get(key, 'MOST_RECENT'))['data'], { a: '1' });
});

test('compaction at a revision not reached yet is refused', async () => {
  const storage = new MemoryStorage();
  assert.throws(() => storage.compact(5), /future revision/);
});
