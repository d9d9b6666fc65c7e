// writeJsonList: a list written from its items' bytes is the same JSON whether it goes in one
// write or in chunks, with its Content-Length; a large one lets the event loop turn between
// chunks, so that other requests are not held while it is copied and encrypted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serveRequest } from '../handlers/verb-test-kit.js';
import { chunkedListBytes, writeJsonList } from './response-writers.js';

const head = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' } };
const item = (i: number) =>
  Buffer.from(JSON.stringify({ metadata: { name: `cm-${i}` }, data: { v: 'x'.repeat(100) } }));
const expected = (items: Buffer[]) =>
  JSON.stringify({ ...head, items: items.map((b) => JSON.parse(b.toString()) as unknown) }) + '\n';

test('a small list: one write, the JSON of head and items', async () => {
  const items = [item(0), item(1)];
  const a = await serveRequest((req, res) => writeJsonList(req, res, head, items), {
    method: 'GET',
    path: '/api/v1/configmaps',
  });
  assert.equal(a.body.toString(), expected(items));
  assert.equal(JSON.stringify(JSON.parse(a.body.toString())), expected(items).trim());
});

test('a list over 1 MiB: the same bytes, its Content-Length, and the event loop turns while it is written', async () => {
  const items = Array.from({ length: 20_000 }, (_, i) => item(i));
  const want = expected(items);
  assert.ok(want.length > 2 * chunkedListBytes, 'several chunks');
  let turned = 0;
  const ticker = setInterval(() => turned++, 0);
  const a = await serveRequest(
    async (req, res) => {
      const written = writeJsonList(req, res, head, items);
      await written;
    },
    { method: 'GET', path: '/api/v1/configmaps' }
  );
  clearInterval(ticker);
  assert.equal(a.body.toString(), want);
  assert.equal(a.headers['content-length'], String(Buffer.byteLength(want)));
  assert.ok(turned > 0, 'timers ran between the chunks');
});
