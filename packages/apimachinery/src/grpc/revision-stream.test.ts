// The storage client's revision reads on the Revisions stream, against a real gRPC server in
// this process whose answers the test scripts: requests answered in order on one stream; a
// failed read fails what is pending and the next request opens another stream; a request not
// answered in time fails with a deadline; an idle stream is ended by the client; a server
// without Revisions (UNIMPLEMENTED) is asked with the unary CurrentRevision.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Server, ServerCredentials, credentials, status } from '@grpc/grpc-js';
import type { ServerDuplexStream, ServiceError, sendUnaryData } from '@grpc/grpc-js';
import { storageProto } from '@orch/proto';
import { StorageClient } from './storage-client.js';

type Revisions = ServerDuplexStream<object, { revision: number }>;

interface Scripted {
  client: StorageClient;
  /** Streams opened, in order; each with the requests it got and whether the client ended it. */
  streams: { call: Revisions; requests: number; ended: boolean }[];
  unaryCalls: number;
}

const servers: Server[] = [];

/** Polls `cond` every 10 ms; fails after 5 s naming `what`. */
async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i === 500) assert.fail(`not within 5 s: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
after(() => servers.forEach((s) => s.forceShutdown()));

/** A Storage server answering Revisions with `onRequest` (unless `streaming` is false). */
async function scripted(
  onRequest: (s: Scripted['streams'][number], n: number) => void,
  opts: { streaming?: boolean; timeoutMs?: number; idleMs?: number } = {}
): Promise<Scripted> {
  const server = new Server();
  servers.push(server);
  const state: Scripted = {
    client: undefined as unknown as StorageClient,
    streams: [],
    unaryCalls: 0,
  };
  server.addService(storageProto.orch.storage.v1.Storage.service, {
    CurrentRevision: (_call: unknown, cb: sendUnaryData<{ revision: number }>) => {
      state.unaryCalls++;
      cb(null, { revision: 100 + state.unaryCalls });
    },
    ...(opts.streaming === false
      ? {}
      : {
          Revisions: (call: Revisions) => {
            const s = { call, requests: 0, ended: false };
            state.streams.push(s);
            call.on('data', () => onRequest(s, ++s.requests));
            call.on('end', () => {
              s.ended = true;
              call.end();
            });
          },
        }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p)
    )
  );
  state.client = new StorageClient({
    address: `127.0.0.1:${port}`,
    credentials: credentials.createInsecure(),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.idleMs ? { revisionsIdleMs: opts.idleMs } : {}),
  });
  return state;
}

test('requests on one stream are answered in order', async () => {
  const pending: Revisions[] = [];
  const s = await scripted((stream) => pending.push(stream.call));
  const [a, b] = [s.client.currentRevision(), s.client.currentRevision()];
  await until('two requests on the stream', () => pending.length === 2);
  pending[0]!.write({ revision: 7 });
  pending[1]!.write({ revision: 9 });
  assert.deepEqual([await a, await b], [7, 9]);
  const c = s.client.currentRevision();
  await until('a third request', () => pending.length === 3);
  pending[2]!.write({ revision: 12 });
  assert.equal(await c, 12);
  assert.equal(s.streams.length, 1, 'one stream for every request');
  s.client.close();
});

test('a failed read fails what is pending with its Status; the next request opens a stream', async () => {
  const s = await scripted((stream, n) => {
    if (s.streams.length === 1 && n === 1)
      stream.call.emit('error', {
        code: status.UNAVAILABLE,
        details: 'etcdserver: leader changed',
      } as ServiceError);
    else stream.call.write({ revision: 20 + n });
  });
  await assert.rejects(s.client.currentRevision(), /leader changed/);
  assert.equal(await s.client.currentRevision(), 21);
  assert.equal(s.streams.length, 2);
  s.client.close();
});

test('a request not answered in time fails with a deadline, and the stream is given up', async () => {
  const s = await scripted(
    (stream, n) => {
      if (s.streams.length > 1) stream.call.write({ revision: n });
    },
    { timeoutMs: 200 }
  );
  // As a unary call past its deadline reads (fromGrpcError's DEADLINE_EXCEEDED).
  await assert.rejects(
    s.client.currentRevision(),
    /storage Revisions: the server did not answer in time/
  );
  assert.equal(await s.client.currentRevision(), 1, 'answered on a new stream');
  assert.equal(s.streams.length, 2);
  s.client.close();
});

test('a server without Revisions is asked with CurrentRevision from then on', async () => {
  const s = await scripted(() => undefined, { streaming: false });
  assert.equal(await s.client.currentRevision(), 101);
  assert.equal(await s.client.currentRevision(), 102);
  assert.equal(s.unaryCalls, 2);
  s.client.close();
});

test('a stream without requests for a while is ended by the client; the next request opens one', async () => {
  const s = await scripted((stream, n) => stream.call.write({ revision: n }), { idleMs: 100 });
  assert.equal(await s.client.currentRevision(), 1);
  await until('the idle stream ended by the client', () => s.streams[0]!.ended);
  assert.equal(await s.client.currentRevision(), 1, 'a new stream, counting from 1');
  assert.equal(s.streams.length, 2);
  s.client.close();
});

test('close() fails what is pending and ends the stream', async () => {
  const s = await scripted(() => undefined);
  const pending = s.client.currentRevision();
  await until('the request on the stream', () => s.streams[0]?.requests === 1);
  s.client.close();
  await assert.rejects(pending, /the storage client closed/);
});
