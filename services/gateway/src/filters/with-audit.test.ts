// The audit filters without a server: the stages a request's events are written at (Panic in
// place of ResponseComplete when a handler throws, ResponseStarted for a watch), omitted stages,
// level None, and the bodies per level with managed fields left out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditEvent } from '../audit/event.js';
import { newPolicyRuleEvaluator } from '../audit/policy/checker.js';
import type { PolicyRule } from '../audit/policy/types.js';
import type { Handler } from '../http/handler.js';
import { serveRequest } from '../handlers/verb-test-kit.js';
import { withAudit, withAuditPolicy } from './with-audit.js';

function audited(
  rules: PolicyRule[],
  handler: Handler,
  omitManagedFields = false,
  store: (e: AuditEvent) => boolean | Promise<boolean> = () => true,
  completeBeforeAnswer = false
) {
  const events: AuditEvent[] = [];
  const c = {
    evaluator: newPolicyRuleEvaluator({
      apiVersion: 'audit.orch.io/v1',
      kind: 'Policy',
      rules,
      omitManagedFields,
    }),
    backend: {
      processEvents: (...e: AuditEvent[]) => (events.push(...e), store(e[0]!)),
      shutdown: async () => {},
    },
    completeBeforeAnswer,
  };
  return { events, handler: withAudit(withAuditPolicy(handler, c), c) };
}

const stagesOf = (events: AuditEvent[]) => events.map((e) => e.stage);
const cm = { metadata: { name: 'c', managedFields: [{ manager: 'm' }] }, data: { a: 'b' } };
const path = '/api/v1/namespaces/ns/configmaps';

test('a handler that throws: Panic with 500 instead of ResponseComplete', async () => {
  const { events, handler } = audited([{ level: 'Request' }], () => {
    throw new Error('boom');
  });
  await assert.rejects(serveRequest(handler, { method: 'GET', path }), /boom/);
  assert.deepEqual(stagesOf(events), ['RequestReceived', 'Panic']);
  assert.equal(events[1]!.responseStatus?.code, 500);
  assert.match(events[1]!.responseStatus?.message ?? '', /boom/);
});

test('a watch: ResponseStarted when its headers go out, no response body recorded', async () => {
  const watch: Handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.flushHeaders();
    res.end('{"type":"ADDED"}\n');
  };
  const all = audited([{ level: 'RequestResponse' }], watch);
  await serveRequest(all.handler, { method: 'GET', path: `${path}?watch=true` });
  assert.deepEqual(stagesOf(all.events), [
    'RequestReceived',
    'ResponseStarted',
    'ResponseComplete',
  ]);
  assert.ok(all.events.every((e) => e.verb === 'watch' && e.responseObject === undefined));

  const omitted = audited(
    [{ level: 'Metadata', omitStages: ['ResponseStarted', 'RequestReceived'] }],
    watch
  );
  await serveRequest(omitted.handler, { method: 'GET', path: `${path}?watch=true` });
  assert.deepEqual(stagesOf(omitted.events), ['ResponseComplete']);
});

test('level None writes nothing; the first matching rule decides', async () => {
  const ok: Handler = (_req, res) => void res.end();
  const none = audited([{ level: 'None', verbs: ['get'] }, { level: 'Metadata' }], ok);
  await serveRequest(none.handler, { method: 'GET', path: `${path}/c` });
  assert.deepEqual(none.events, []);
  await serveRequest(none.handler, { method: 'DELETE', path: `${path}/c` });
  assert.deepEqual(stagesOf(none.events), ['RequestReceived', 'ResponseComplete']);
});

test('bodies: Request has the request object, RequestResponse both, managed fields omitted', async () => {
  const echo: Handler = (_req, res) => {
    res.writeHead(201, { 'Content-Type': 'application/json' });
    res.write('{"metadata":{"name":"c","managedFields":[{"manager":"m"}]},');
    res.end('"data":{"a":"b"}}');
  };
  const req = audited([{ level: 'Request' }], echo);
  await serveRequest(req.handler, { method: 'POST', path, body: cm });
  const r = req.events.at(-1)!;
  assert.deepEqual(r.requestObject, cm);
  assert.equal(r.responseObject, undefined);
  assert.equal(r.objectRef?.name, 'c');

  const both = audited([{ level: 'RequestResponse' }], echo, true);
  await serveRequest(both.handler, { method: 'POST', path, body: cm });
  const b = both.events.at(-1)!;
  const expected = { metadata: { name: 'c' }, data: { a: 'b' } };
  assert.deepEqual(b.requestObject, expected);
  assert.deepEqual(b.responseObject, expected);
  assert.deepEqual(b.responseStatus, { code: 201 });

  const meta = audited([{ level: 'Metadata' }], echo);
  await serveRequest(meta.handler, { method: 'POST', path, body: cm });
  assert.ok(
    meta.events.every((e) => e.requestObject === undefined && e.responseObject === undefined)
  );
});

test('blocking: the response ends only once its ResponseComplete event is stored', async () => {
  let release: (stored: boolean) => void = () => {};
  const order: string[] = [];
  const ok: Handler = (_req, res) => {
    res.on('finish', () => order.push('response ended'));
    res.end('{}');
  };
  const blocking = audited(
    [{ level: 'Metadata' }],
    ok,
    false,
    (e) => {
      if (e.stage !== 'ResponseComplete') return true;
      order.push('event sent');
      return new Promise((r) => (release = r));
    },
    true
  );
  const served = serveRequest(blocking.handler, { method: 'GET', path: `${path}/c` });
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(order, ['event sent'], 'the end waits for the backend');
  release(true);
  await served;
  assert.deepEqual(order, ['event sent', 'response ended']);
});

test('batch backends alone: ResponseComplete is built once the answer is out, end left as it is', async () => {
  let response: { writableEnded: boolean } | undefined;
  let wrapped: boolean | undefined;
  const ok: Handler = (_req, res) => {
    response = res;
    wrapped = Object.hasOwn(res, 'end');
    res.end('{}');
  };
  const endedWhenSent: boolean[] = [];
  const batch = audited([{ level: 'Metadata' }], ok, false, (e) => {
    if (e.stage === 'ResponseComplete') endedWhenSent.push(response!.writableEnded);
    return true;
  });
  await serveRequest(batch.handler, { method: 'GET', path: `${path}/c` });
  assert.deepEqual(endedWhenSent, [true], 'built after the end');
  assert.equal(wrapped, false, "the response's end is its own");
});

test('blocking-strict: RequestReceived not stored fails the request with 500, the handler never runs', async () => {
  let ran = false;
  const strict = audited(
    [{ level: 'Metadata' }],
    (_req, res) => {
      ran = true;
      res.end();
    },
    false,
    (e) => Promise.resolve(e.stage !== 'RequestReceived')
  );
  await assert.rejects(
    serveRequest(strict.handler, { method: 'GET', path: `${path}/c` }),
    (err: { status?: { code: number; reason: string; message: string } }) =>
      err.status?.code === 500 &&
      err.status.reason === 'InternalError' &&
      err.status.message === 'Internal error occurred: failed to store audit event'
  );
  assert.equal(ran, false);
  assert.deepEqual(stagesOf(strict.events), ['RequestReceived'], 'no ResponseComplete after it');
});
