// The storage client's Get, Create, Update, Delete and CurrentRevision on the Calls stream,
// against a real gRPC server in this process whose answers the test scripts: calls on one stream
// answered in any order and matched by id; a call answered with an error fails alone, with its
// Status; a lost stream fails what is pending and the next call opens another; a call past its
// deadline fails alone and retires its stream; an idle stream is ended by the client; a server
// without Calls (UNIMPLEMENTED) is asked with the unary calls.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Server, ServerCredentials, credentials, status } from '@grpc/grpc-js';
import type { ServerDuplexStream, ServiceError, sendUnaryData } from '@grpc/grpc-js';
import { storageProto } from '@orch/proto';
import type { CallRequest__Output, CallResponse } from '@orch/proto';
import { StatusError, newAlreadyExists, toCallError } from '../errors/index.js';
import { StorageClient } from './storage-client.js';

type Calls = ServerDuplexStream<CallRequest__Output, CallResponse>;
interface Stream {
  call: Calls;
  requests: CallRequest__Output[];
  ended: boolean;
  cancelled: boolean;
}

interface Scripted {
  client: StorageClient;
  /** Streams opened, in order, each with the requests it got. */
  streams: Stream[];
  unaryCalls: string[];
}

const servers: Server[] = [];
after(() => servers.forEach((s) => s.forceShutdown()));

/** Polls `cond` every 10 ms; fails after 5 s naming `what`. */
async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i === 500) assert.fail(`not within 5 s: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const object = (name: string): Buffer => Buffer.from(JSON.stringify({ metadata: { name } }));

/** A Storage server answering Calls with `onRequest` (no Calls when `streaming` is false). */
async function scripted(
  onRequest: (s: Stream, m: CallRequest__Output) => void,
  opts: { streaming?: boolean; timeoutMs?: number; idleMs?: number } = {}
): Promise<Scripted> {
  const server = new Server();
  servers.push(server);
  const state: Scripted = {
    client: undefined as unknown as StorageClient,
    streams: [],
    unaryCalls: [],
  };
  const unary =
    (name: string, answer: object) =>
    (_call: unknown, cb: sendUnaryData<object>): void => {
      state.unaryCalls.push(name);
      cb(null, answer);
    };
  server.addService(storageProto.orch.storage.v1.Storage.service, {
    Get: unary('Get', { object: object('unary'), revision: 5 }),
    Create: unary('Create', { object: object('large') }),
    CurrentRevision: unary('CurrentRevision', { revision: 101 }),
    ...(opts.streaming === false
      ? {}
      : {
          Calls: (call: Calls) => {
            const s: Stream = { call, requests: [], ended: false, cancelled: false };
            state.streams.push(s);
            call.on('data', (m: CallRequest__Output) => {
              s.requests.push(m);
              onRequest(s, m);
            });
            call.on('cancelled', () => (s.cancelled = true));
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
    ...(opts.idleMs ? { callsIdleMs: opts.idleMs } : {}),
  });
  return state;
}

test('calls on one stream are answered in any order, each matched by its id', async () => {
  const held: CallRequest__Output[] = [];
  const s = await scripted((_s, m) => held.push(m));
  const got = s.client.get('/registry/a', 'MOST_RECENT');
  const created = s.client.create('/registry/b', { metadata: { name: 'b' } });
  const revision = s.client.currentRevision();
  await until('three calls on the stream', () => held.length === 3);
  const [g, c, r] = held as [CallRequest__Output, CallRequest__Output, CallRequest__Output];
  assert.deepEqual([g.call, c.call, r.call], ['get', 'create', 'current_revision']);
  assert.equal(g.get?.key, '/registry/a');
  const call = s.streams[0]!.call;
  call.write({ id: r.id, current_revision: { revision: 9 } });
  call.write({ id: c.id, create: { object: object('b') } });
  call.write({ id: g.id, get: { object: object('a'), revision: 7 } });
  assert.equal(await revision, 9);
  assert.deepEqual(await created, { metadata: { name: 'b' } });
  assert.deepEqual(await got, { metadata: { name: 'a' } });
  assert.equal(s.streams.length, 1, 'one stream for every call');
  s.client.close();
});

test('a call answered with an error fails alone, with the Status the answer carries', async () => {
  const s = await scripted((stream, m) => {
    if (m.call === 'create') {
      const error = toCallError(newAlreadyExists({ group: '', resource: 'configmaps' }, 'b'));
      stream.call.write({ id: m.id, error });
    } else stream.call.write({ id: m.id, current_revision: { revision: 3 } });
  });
  const err = await s.client.create('/registry/b', {}).catch((e: unknown) => e);
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 409);
  assert.equal(err.status.reason, 'AlreadyExists');
  assert.equal(err.message, 'configmaps "b" already exists');
  assert.equal(await s.client.currentRevision(), 3);
  assert.equal(s.streams.length, 1, 'the stream lives on');
  s.client.close();
});

test('a lost stream fails what is pending; the next call opens another', async () => {
  const s = await scripted((stream, m) => {
    if (s.streams.length === 1)
      stream.call.emit('error', {
        code: status.UNAVAILABLE,
        details: 'going away',
      } as ServiceError);
    else stream.call.write({ id: m.id, current_revision: { revision: 21 } });
  });
  const err = await s.client.get('/registry/a', 'MOST_RECENT').catch((e: unknown) => e);
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 503);
  assert.match(err.message, /storage Get is unavailable: going away/);
  assert.equal(await s.client.currentRevision(), 21);
  assert.equal(s.streams.length, 2);
  s.client.close();
});

test('a call past its deadline fails alone; its stream takes no new call and is cancelled once empty', async () => {
  const s = await scripted(
    (stream, m) => {
      // On the first stream: the first call is never answered, the second after 250 ms.
      if (s.streams.length > 1) stream.call.write({ id: m.id, current_revision: { revision: 1 } });
      else if (stream.requests.length === 2)
        setTimeout(() => stream.call.write({ id: m.id, current_revision: { revision: 2 } }), 250);
    },
    { timeoutMs: 300 }
  );
  const lost = s.client.get('/registry/a', 'MOST_RECENT').catch((e: unknown) => e);
  await new Promise((r) => setTimeout(r, 100));
  const late = s.client.currentRevision();
  const err = await lost;
  // As a unary call past its deadline reads (fromGrpcError's DEADLINE_EXCEEDED).
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 504);
  assert.match(err.message, /storage Get: the server did not answer in time/);
  assert.equal(await s.client.currentRevision(), 1, 'a new call goes on a new stream');
  assert.equal(await late, 2, 'a call pending on the retired stream is still answered');
  await until('the retired stream cancelled', () => s.streams[0]!.cancelled);
  assert.equal(s.streams.length, 2);
  s.client.close();
});

test('a server without Calls is asked with the unary calls from then on', async () => {
  const s = await scripted(() => undefined, { streaming: false });
  assert.deepEqual(await s.client.get('/registry/a', 'MOST_RECENT'), {
    metadata: { name: 'unary' },
  });
  assert.equal(await s.client.currentRevision(), 101);
  assert.deepEqual(s.unaryCalls, ['Get', 'CurrentRevision']);
  s.client.close();
});

test('a stream without calls for a while is ended by the client; the next call opens one', async () => {
  const s = await scripted(
    (stream, m) =>
      stream.call.write({ id: m.id, current_revision: { revision: stream.requests.length } }),
    { idleMs: 100 }
  );
  assert.equal(await s.client.currentRevision(), 1);
  await until(
    'the idle stream ended by the client',
    () => s.streams[0]!.cancelled || s.streams[0]!.ended
  );
  assert.equal(await s.client.currentRevision(), 1, 'a new stream, counting from 1');
  assert.equal(s.streams.length, 2);
  s.client.close();
});

test('close() fails what is pending and ends the stream', async () => {
  const s = await scripted(() => undefined);
  const pending = s.client.update('/registry/a', {}, {});
  await until('the call on the stream', () => s.streams[0]?.requests.length === 1);
  s.client.close();
  await assert.rejects(pending, /the storage client closed/);
});

test('a write of an object over 64 KiB goes as a unary call, not on the stream', async () => {
  const s = await scripted((stream, m) =>
    stream.call.write({ id: m.id, create: { object: object('small') } })
  );
  const large = { metadata: { name: 'large' }, data: { v: 'x'.repeat(64 * 1024) } };
  assert.deepEqual(await s.client.create('/registry/large', large), {
    metadata: { name: 'large' },
  });
  assert.deepEqual(await s.client.create('/registry/small', {}), { metadata: { name: 'small' } });
  assert.deepEqual(s.unaryCalls, ['Create']);
  assert.equal(s.streams[0]?.requests.length, 1, 'the small one on the stream');
  s.client.close();
});
