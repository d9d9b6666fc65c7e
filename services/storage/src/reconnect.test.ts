// A storage replica away for long (found by the chaos test): its clients (gateway, authorizer,
// admission) keep trying to reconnect every few seconds, so that they find it again within
// seconds of its return. grpc-js's default backoff grows to 120 s: after a 45 s outage a gateway
// found its storage again only about 10 s after it had returned, and later still after longer
// ones. Here the "server" takes every connection and drops it at once, and the test reads when
// the client tried: no gap between two attempts may exceed the capped backoff (3 s, ±20 %).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { StorageClient } from '@orch/apimachinery/grpc';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { throwawayPki } from '@orch/testing/throwaway-pki';
import type { ThrowawayPki } from '@orch/testing/throwaway-pki';

let pki: ThrowawayPki;
let server: Server;
const attempts: number[] = [];

before(async () => {
  pki = await throwawayPki();
  server = createServer((socket) => {
    attempts.push(Date.now());
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await pki.cleanup();
});

test('a storage client retries a lost server at least every few seconds, however long it is away', async () => {
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  const gw = pki.file('gateway');
  const client = new StorageClient({
    address: `127.0.0.1:${address.port}`,
    credentials: clientCredentials({
      caFile: pki.caFile,
      certFile: gw.certFile,
      keyFile: gw.keyFile,
    }),
    timeoutMs: 500,
  });
  try {
    // Asked all along, as a gateway's readiness check asks it. grpc-js's default backoff would
    // space the attempts 1, 1.6, 2.6, 4.1, 6.6, 10.5 s apart within these 20 s.
    const end = Date.now() + 20_000;
    while (Date.now() < end) {
      await client.currentRevision().then(
        () => assert.fail('nothing serves here'),
        () => undefined
      );
      await sleep(250);
    }
  } finally {
    client.close();
  }
  const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
  assert.ok(attempts.length >= 6, `connection attempts: ${attempts.length}`);
  assert.ok(
    Math.max(...gaps) <= 4500,
    `the longest wait between two connection attempts was ${Math.max(...gaps)} ms (gaps ${gaps.join(', ')})`
  );
});
