// The conversion webhook's client side, against a real HTTPS webhook on loopback: what is sent
// (one ConversionReview for the objects not yet at the desired version, the first
// conversionReviewVersion this server speaks, service references dialled through the address
// map), and each check upstream's webhook_converter.go makes on the reply, row by row with its
// message.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';
import { StatusError } from '@orch/apimachinery/errors';
import { startWebhookServer } from '@orch/testing/webhook-server';
import type { WebhookCall, WebhookServer } from '@orch/testing/webhook-server';
import { convertSizeReplicas, twoVersionCrd } from './two-version-fixture.js';
import { WebhookConverter } from '@orch/apimachinery/apiextensions';

const group = 'conv.example.com';
type Obj = Record<string, any>;

/** The reply a correct webhook gives, which each row then spoils in one way. */
function goodReply(call: WebhookCall): Obj {
  const review = call.body as Obj;
  const req = review.request;
  return {
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: {
      uid: req.uid,
      result: { status: 'Success' },
      convertedObjects: req.objects.map((o: Obj) => convertSizeReplicas(o, req.desiredAPIVersion)),
    },
  };
}

const widget = (v: string, name: string, spec: Obj, meta: Obj = {}): Obj => ({
  apiVersion: `${group}/${v}`,
  kind: 'Widget',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '7', ...meta },
  spec,
});

function crdWith(clientConfig: Obj, reviewVersions = ['v1']): CustomResourceDefinition {
  return twoVersionCrd({ group, plural: 'widgets', kind: 'Widget', clientConfig, reviewVersions });
}

describe('conversion webhook client (upstream webhook_converter.go)', () => {
  let server: WebhookServer;
  /** What the webhook answers next (the default converts correctly). */
  let answer: (call: WebhookCall) => { status?: number; body?: unknown; text?: string };
  let converter: WebhookConverter;

  before(async () => {
    server = await startWebhookServer((call) => answer(call), { dnsNames: ['convert.hooks.svc'] });
    converter = new WebhookConverter(
      crdWith({ url: server.url('/convert'), caBundle: server.caBundle }),
      { serviceAddresses: {} }
    );
  });
  after(async () => {
    converter.close();
    await server.stop();
  });

  const fresh = () => {
    answer = (call) => ({ body: goodReply(call) });
    server.calls.length = 0;
  };

  it('sends one ConversionReview v1 for the objects not yet at the desired version, in order', async () => {
    fresh();
    const objs = [
      widget('v1', 'a', { size: '1' }),
      widget('v2', 'b', { replicas: 2 }),
      widget('v1', 'c', { size: '3' }),
    ];
    const before = structuredClone(objs);
    const out = await converter.convert(objs, `${group}/v2`);
    assert.deepEqual(objs, before, 'the input is not mutated');
    assert.equal(server.calls.length, 1);
    const review = server.calls[0]!.body as Obj;
    assert.equal(review.apiVersion, 'apiextensions.orch.io/v1');
    assert.equal(review.kind, 'ConversionReview');
    assert.equal(review.request.desiredAPIVersion, `${group}/v2`);
    assert.match(review.request.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      review.request.objects.map((o: Obj) => o.metadata.name),
      ['a', 'c']
    );
    assert.deepEqual(
      out.map((o) => [o['apiVersion'], (o['metadata'] as Obj).name, o['spec']]),
      [
        [`${group}/v2`, 'a', { replicas: 1 }],
        [`${group}/v2`, 'b', { replicas: 2 }],
        [`${group}/v2`, 'c', { replicas: 3 }],
      ]
    );
    assert.equal(server.calls[0]!.headers['content-type'], 'application/json');
  });

  it('makes no call when every object is at the desired version already', async () => {
    fresh();
    const objs = [widget('v2', 'a', { replicas: 1 })];
    assert.deepEqual(await converter.convert(objs, `${group}/v2`), objs);
    assert.equal(server.calls.length, 0);
  });

  it('keeps the metadata but labels and annotations, which come from the webhook', async () => {
    fresh();
    answer = (call) => {
      const reply = goodReply(call);
      const o = reply.response.convertedObjects[0];
      o.metadata = {
        ...o.metadata,
        labels: { converted: 'yes' },
        annotations: { note: 'by webhook' },
        generation: 99,
        finalizers: ['x/y'],
      };
      return { body: reply };
    };
    const [out] = await converter.convert(
      [widget('v1', 'a', { size: '4' }, { labels: { old: 'label' }, generation: 2 })],
      `${group}/v2`
    );
    assert.deepEqual(out!['metadata'], {
      name: 'a',
      namespace: 'ns',
      uid: 'uid-a',
      resourceVersion: '7',
      generation: 2,
      labels: { converted: 'yes' },
      annotations: { note: 'by webhook' },
    });
  });

  it('prunes what the target version schema does not specify (upstream schemaCoercingConverter)', async () => {
    fresh();
    answer = (call) => {
      const reply = goodReply(call);
      reply.response.convertedObjects[0].spec.extra = 'dropped';
      reply.response.convertedObjects[0].junk = true;
      return { body: reply };
    };
    const [out] = await converter.convert([widget('v1', 'a', { size: '5' })], `${group}/v2`);
    assert.deepEqual(out!['spec'], { replicas: 5 });
    assert.equal(out!['junk'], undefined);
  });

  // Each row spoils a good reply; the conversion fails with upstream's message, as a 500.
  const gvk = `${group}/v1, Kind=Widget`;
  const rows: { row: string; spoil: (r: Obj, call: WebhookCall) => unknown; message: string }[] = [
    {
      row: 'result Failure with a message: the message',
      spoil: (r) => ({
        ...r,
        response: { ...r.response, result: { status: 'Failure', message: 'size is not a number' } },
      }),
      message: `conversion webhook for ${gvk} failed: size is not a number`,
    },
    {
      row: 'result not Success, no message',
      spoil: (r) => ({ ...r, response: { ...r.response, result: { status: 'Failure' } } }),
      message: `conversion webhook for ${gvk} failed: response.result.status was 'Failure', not 'Success'`,
    },
    {
      row: 'another kind of review',
      spoil: (r) => ({ ...r, kind: 'AdmissionReview' }),
      message: `conversion webhook for ${gvk} failed: expected webhook response of apiextensions.orch.io/v1, Kind=ConversionReview, got apiextensions.orch.io/v1, Kind=AdmissionReview`,
    },
    {
      row: 'no response',
      spoil: (r) => ({ apiVersion: r.apiVersion, kind: r.kind }),
      message: `conversion webhook for ${gvk} failed: no response provided`,
    },
    {
      row: 'another uid',
      spoil: (r) => ({ ...r, response: { ...r.response, uid: 'not-the-request' } }),
      message: `conversion webhook for ${gvk} failed: expected response.uid=`,
    },
    {
      row: 'fewer objects than sent',
      spoil: (r) => ({ ...r, response: { ...r.response, convertedObjects: [] } }),
      message: `conversion webhook for ${gvk} returned 0 objects, expected 1`,
    },
    {
      row: 'an object at another version',
      spoil: (r) => {
        r.response.convertedObjects[0].apiVersion = `${group}/v1`;
        return r;
      },
      message: `conversion webhook for ${gvk} returned invalid object at index 0: invalid groupVersion (expected ${group}/v2, received ${group}/v1)`,
    },
    {
      row: 'an object of another kind',
      spoil: (r) => {
        r.response.convertedObjects[0].kind = 'Gadget';
        return r;
      },
      message: `conversion webhook for ${gvk} returned invalid object at index 0: invalid kind (expected Widget, received Gadget)`,
    },
    {
      row: 'the name changed',
      spoil: (r) => {
        r.response.convertedObjects[0].metadata.name = 'renamed';
        return r;
      },
      message: `conversion webhook for ${gvk} returned invalid object: must have the same name: a != renamed`,
    },
    {
      row: 'the uid changed',
      spoil: (r) => {
        r.response.convertedObjects[0].metadata.uid = 'other';
        return r;
      },
      message: `conversion webhook for ${gvk} returned invalid object: must have the same UID: uid-a != other`,
    },
    {
      row: 'metadata missing',
      spoil: (r) => {
        delete r.response.convertedObjects[0].metadata;
        return r;
      },
      message: `conversion webhook for ${gvk} returned invalid object: must have the same name: a != `,
    },
    {
      row: 'an invalid label',
      spoil: (r) => {
        r.response.convertedObjects[0].metadata.labels = { 'bad key!': 'v' };
        return r;
      },
      message: `conversion webhook for ${gvk} returned invalid metadata: metadata.labels: Invalid value: "bad key!"`,
    },
    {
      row: 'a label that is not a string',
      spoil: (r) => {
        r.response.convertedObjects[0].metadata.labels = { n: 1 };
        return r;
      },
      message: `conversion webhook for ${gvk} returned invalid metadata: metadata.labels[n] must be a string, but is number in converted object`,
    },
    {
      row: 'HTTP 500',
      spoil: () => ({ status: 500, text: 'boom' }),
      message: `conversion webhook for ${gvk} failed: the server responded with status 500: boom`,
    },
    {
      row: 'not JSON',
      spoil: () => ({ text: '<html>' }),
      message: `conversion webhook for ${gvk} failed: received invalid webhook response:`,
    },
  ];
  for (const { row, spoil, message } of rows) {
    it(`fails when the reply has ${row}`, async () => {
      fresh();
      answer = (call) => {
        const spoiled = spoil(goodReply(call), call) as Obj;
        return 'status' in spoiled || 'text' in spoiled ? spoiled : { body: spoiled };
      };
      const err = await converter.convert([widget('v1', 'a', { size: '1' })], `${group}/v2`).then(
        () => assert.fail('converted'),
        (e: unknown) => e
      );
      assert.ok(err instanceof StatusError, String(err));
      assert.equal(err.status.code, 500);
      assert.equal(err.status.reason, 'InternalError');
      assert.ok(
        (err.status.message ?? '').startsWith(`Internal error occurred: ${message}`),
        `${err.status.message ?? ''}\n  does not start with\nInternal error occurred: ${message}`
      );
    });
  }

  it('names the index of the bad object in a list', async () => {
    fresh();
    answer = (call) => {
      const r = goodReply(call);
      r.response.convertedObjects[1].kind = 'Gadget';
      return { body: r };
    };
    const err = (await converter
      .convert([widget('v1', 'a', { size: '1' }), widget('v1', 'b', { size: '2' })], `${group}/v2`)
      .catch((e: unknown) => e)) as StatusError;
    assert.equal(
      err.status.message,
      `Internal error occurred: conversion webhook for ${gvk} returned invalid converted object at index 1: invalid kind (expected Widget, received Gadget)`
    );
  });

  it('speaks v1beta1 when that is the first version the CRD lists that it knows (no uid check)', async () => {
    fresh();
    answer = (call) => {
      const r = goodReply(call);
      r.response.uid = 'v1beta1-never-checked-uids';
      return { body: r };
    };
    const beta = new WebhookConverter(
      crdWith({ url: server.url('/convert'), caBundle: server.caBundle }, ['v9', 'v1beta1', 'v1']),
      { serviceAddresses: {} }
    );
    try {
      const [out] = await beta.convert([widget('v1', 'a', { size: '6' })], `${group}/v2`);
      assert.deepEqual(out!['spec'], { replicas: 6 });
      assert.equal((server.calls[0]!.body as Obj).apiVersion, 'apiextensions.orch.io/v1beta1');
    } finally {
      beta.close();
    }
  });

  it('refuses a CRD listing no ConversionReview version it speaks, without calling', async () => {
    fresh();
    const none = new WebhookConverter(
      crdWith({ url: server.url('/convert'), caBundle: server.caBundle }, ['v9']),
      { serviceAddresses: {} }
    );
    const err = (await none
      .convert([widget('v1', 'a', { size: '6' })], `${group}/v2`)
      .catch((e: unknown) => e)) as StatusError;
    none.close();
    assert.equal(
      err.status.message,
      'Internal error occurred: no supported conversion review versions'
    );
    assert.equal(server.calls.length, 0);
  });

  it('dials a service reference through the address map, verifying the service name', async () => {
    fresh();
    const svc = new WebhookConverter(
      crdWith({
        service: { namespace: 'hooks', name: 'convert', path: '/by-service', port: 8443 },
        caBundle: server.caBundle,
      }),
      { serviceAddresses: { 'convert.hooks.svc:8443': `127.0.0.1:${server.port}` } }
    );
    try {
      const [out] = await svc.convert([widget('v1', 'a', { size: '8' })], `${group}/v2`);
      assert.deepEqual(out!['spec'], { replicas: 8 });
      assert.equal(server.calls[0]!.path, '/by-service');
      assert.equal(server.calls[0]!.headers.host, 'convert.hooks.svc:8443');
    } finally {
      svc.close();
    }
  });

  it('fails naming the URL when the webhook cannot be reached or is not trusted', async () => {
    fresh();
    const untrusted = new WebhookConverter(crdWith({ url: server.url('/convert') }), {
      serviceAddresses: {},
    });
    const err = (await untrusted
      .convert([widget('v1', 'a', { size: '1' })], `${group}/v2`)
      .catch((e: unknown) => e)) as StatusError;
    untrusted.close();
    assert.match(
      err.status.message ?? '',
      new RegExp(
        `^Internal error occurred: conversion webhook for ${gvk.replace(/[.]/g, '\\.')} failed: Post "${server.url('/convert').replace(/[.]/g, '\\.')}": .*certificate`
      )
    );
  });
});
