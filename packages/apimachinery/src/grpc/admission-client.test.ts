// The admission client against in-process gRPC servers: Admit calls go on the AdmitCalls stream
// and are answered in any order, each matched by its id; a call answered with an error fails
// alone with its Status; a service without the stream (UNIMPLEMENTED) is asked with unary Admit
// calls. (The stream's deadlines, losses and idle end are call-stream.ts's, tested with storage.)
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Server, ServerCredentials, credentials } from '@grpc/grpc-js';
import type { ServerDuplexStream, sendUnaryData } from '@grpc/grpc-js';
import { admissionProto } from '@orch/proto';
import type {
  AdmitCallRequest__Output,
  AdmitCallResponse,
  AdmitRequest__Output,
  AdmitResponse,
} from '@orch/proto';
import { StatusError, newForbidden, toCallError } from '../errors/index.js';
import { AdmissionClient } from './admission-client.js';
import { admitResultToProto } from './admission-mapping.js';
import type { AdmitCall } from './admission-mapping.js';

const servers: Server[] = [];
const clients: AdmissionClient[] = [];
after(() => {
  clients.forEach((c) => c.close());
  servers.forEach((s) => s.forceShutdown());
});

const call = (name: string): AdmitCall => ({
  phase: 'validating',
  plugins: ['AlwaysAdmit'],
  request: {
    operation: 'CREATE',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource: '',
    namespace: 'ns',
    name,
    userInfo: { name: 'alice', uid: '', groups: [], extra: {} },
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name } },
    oldObject: undefined,
    options: undefined,
    dryRun: false,
  },
});

/** Allowed, with the call's name as a warning, so that an answer shows which call it is. */
const allowed = (m: AdmitRequest__Output): AdmitResponse =>
  admitResultToProto({
    allowed: true,
    status: undefined,
    object: undefined,
    warnings: [m.name],
    auditAnnotations: {},
  });

async function serve(streaming: boolean) {
  const server = new Server();
  servers.push(server);
  const seen = { unary: 0, streamed: [] as AdmitCallRequest__Output[] };
  const held: {
    m: AdmitCallRequest__Output;
    call: ServerDuplexStream<AdmitCallRequest__Output, AdmitCallResponse>;
  }[] = [];
  server.addService(admissionProto.orch.admission.v1.Admission.service, {
    ListPlugins: (_c: unknown, cb: sendUnaryData<object>) => cb(null, { plugins: [] }),
    Admit: (c: { request: AdmitRequest__Output }, cb: sendUnaryData<AdmitResponse>) => {
      seen.unary++;
      cb(null, allowed(c.request));
    },
    ...(streaming
      ? {
          AdmitCalls: (s: ServerDuplexStream<AdmitCallRequest__Output, AdmitCallResponse>) => {
            s.on('data', (m: AdmitCallRequest__Output) => {
              seen.streamed.push(m);
              held.push({ m, call: s });
              if (held.length < 3) return;
              // Answered last first; the denied one with an error.
              for (const h of held.reverse()) {
                if (h.m.admit?.name === 'denied')
                  h.call.write({
                    id: h.m.id,
                    error: toCallError(
                      newForbidden({ group: '', resource: 'pods' }, 'denied', 'no')
                    ),
                  });
                else h.call.write({ id: h.m.id, admit: allowed(h.m.admit!) });
              }
              held.length = 0;
            });
            s.on('end', () => s.end());
          },
        }
      : {}),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p)
    )
  );
  const client = new AdmissionClient({
    address: `127.0.0.1:${port}`,
    credentials: credentials.createInsecure(),
  });
  clients.push(client);
  return { client, seen };
}

test('admission client: Admit calls go on AdmitCalls, answered in any order, each matched by its id', async () => {
  const { client, seen } = await serve(true);
  const [a, denied, b] = await Promise.allSettled([
    client.admit(call('a')),
    client.admit(call('denied')),
    client.admit(call('b')),
  ]);
  assert.equal(a.status === 'fulfilled' && a.value.warnings[0], 'a');
  assert.equal(b.status === 'fulfilled' && b.value.warnings[0], 'b');
  assert.equal(denied.status, 'rejected');
  const err = (denied as PromiseRejectedResult).reason as StatusError;
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 403);
  assert.match(err.message, /pods "denied" is forbidden: no/);
  assert.equal(seen.streamed.length, 3);
  assert.equal(seen.unary, 0, 'no unary call');
  assert.equal(new Set(seen.streamed.map((m) => m.id)).size, 3, 'each call its own id');
});

test('admission client: a service without AdmitCalls is asked with unary Admit calls', async () => {
  const { client, seen } = await serve(false);
  const r = await client.admit(call('one'));
  assert.deepEqual(r.warnings, ['one']);
  assert.equal((await client.admit(call('two'))).warnings[0], 'two');
  assert.equal(seen.unary, 2);
});
