// writeJsonList: a list written from its items' bytes is the same JSON whether it goes in one
// write or in chunks, with its Content-Length; a large one lets the event loop turn between
// chunks, so that other requests are not held while it is copied and encrypted.
import assert from 'node:assert/strict';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A GET whose answer is not read for 100 ms, then read whole. */
function slowGet(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      res.pause();
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => resolve(Buffer.concat(parts).toString()));
      setTimeout(() => res.resume(), 100);
    }).on('error', reject);
  });
}

test('large lists written at once over real sockets to clients slow to read, some items larger than a chunk: each the same bytes (chunk buffers are reused only once written)', async () => {
  const big = (i: number) =>
    Buffer.from(
      JSON.stringify({ metadata: { name: `big-${i}` }, data: { v: 'y'.repeat(300_000) } })
    );
  const lists = Array.from({ length: 4 }, (_, l) =>
    Array.from({ length: 60_000 }, (_, i) =>
      i % 20_000 === 17 ? big(l * 10 + i) : item(l * 100_000 + i)
    )
  );
  const server = createServer((req, res) => {
    const l = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('l'));
    void writeJsonList(req as never, res as never, head, lists[l]!);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    for (let round = 0; round < 3; round++) {
      // Each client reads nothing for a while: the socket backs up, and the writes queue.
      const bodies = await Promise.all(lists.map(async (_, l) => slowGet(port, `/?l=${l}`)));
      bodies.forEach((body, l) =>
        assert.equal(body, expected(lists[l]!), `list ${l}, round ${round}`)
      );
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
