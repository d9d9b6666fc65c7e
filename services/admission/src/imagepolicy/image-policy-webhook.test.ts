// ImagePolicyWebhook against a real backend: a Node HTTPS server on loopback with its own CA,
// asking for a client certificate, whose answer each test sets (allow, deny with a reason, 500,
// no answer, garbage). Rows name the spec's "Image review" request and response fields and the
// keys of its backend configuration table.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, beforeEach, describe, it } from 'node:test';

import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { createLogger } from '@orch/component-base/logs';
import type { KeyPairPem } from '@orch/component-base/pki';
import { createCertificateAuthority, issueCertificate } from '@orch/component-base/pki';

import type { AdmissionContext, AdmissionRequest, Operation } from '../interfaces.js';
import { ImagePolicyConfigError } from './image-policy-config.js';
import type { ImagePolicyWebhook } from './image-policy-webhook.js';
import { imagePolicyFailedOpenKey, newImagePolicyWebhook } from './image-policy-webhook.js';

const log = createLogger('imagepolicy-test', 'error');

interface Received {
  body: any;
  headers: IncomingMessage['headers'];
  clientCn: string | undefined;
  url: string;
}
type Handler = (body: any, res: ServerResponse) => void;

let dir: string;
let ca: KeyPairPem;
let client: KeyPairPem;
let server: Server;
let url: string;
let received: Received[] = [];
let handler: Handler;
const plugins: ImagePolicyWebhook[] = [];

const reply = (status: Record<string, unknown>, extra: Record<string, unknown> = {}): Handler => {
  return (_body, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(
      JSON.stringify({
        apiVersion: 'imagepolicy.orch.io/v1alpha1',
        kind: 'ImageReview',
        status,
        ...extra,
      })
    );
  };
};
const allow = reply({ allowed: true });

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** A kubeconfig in the temp dir; `user` is the user entry's fields. */
async function kubeconfig(
  name: string,
  user: Record<string, string> = {
    'client-certificate': 'client.pem',
    'client-key': 'client-key.pem',
  },
  cluster: Record<string, unknown> = { server: url, 'certificate-authority': 'ca.pem' }
): Promise<string> {
  const file = join(dir, name);
  await writeFile(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'backend', cluster }],
      users: [{ name: 'admission', user }],
      contexts: [{ name: 'default', context: { cluster: 'backend', user: 'admission' } }],
      'current-context': 'default',
    })
  );
  return file;
}

let defaultKubeconfig: string;

function plugin(
  imagePolicy: Record<string, unknown>,
  requestTimeoutMs?: number
): ImagePolicyWebhook {
  const p = newImagePolicyWebhook(
    { config: { imagePolicy: { kubeConfigFile: defaultKubeconfig, ...imagePolicy } }, log },
    requestTimeoutMs === undefined ? {} : { requestTimeoutMs }
  );
  plugins.push(p);
  return p;
}

function pod(spec: Record<string, unknown>, annotations?: Record<string, string>): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'team-a', ...(annotations ? { annotations } : {}) },
    spec,
  };
}

function request(
  object: ApiObject | undefined,
  over: Partial<AdmissionRequest> = {}
): AdmissionRequest {
  return {
    operation: 'CREATE',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource: '',
    namespace: 'team-a',
    name: 'web',
    userInfo: { name: 'alice', uid: '', groups: ['system:authenticated'], extra: {} },
    object,
    oldObject: undefined,
    options: { apiVersion: 'meta.orch.io/v1', kind: 'CreateOptions' },
    dryRun: false,
    ...over,
  };
}

interface Recorded extends AdmissionContext {
  annotations: Record<string, string>;
  warnings: string[];
}
function context(signal: AbortSignal = new AbortController().signal): Recorded {
  const annotations: Record<string, string> = {};
  const warnings: string[] = [];
  return {
    annotations,
    warnings,
    signal,
    warn: (t) => warnings.push(t),
    annotate: (k, v) => {
      annotations[k] = v;
    },
  };
}

const webPod = pod({ containers: [{ name: 'c', image: 'registry.example/web:1' }] });

async function denied(p: Promise<void>, code: number, message: string | RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof StatusError, String(err));
    assert.equal(err.code, code);
    if (typeof message === 'string') assert.equal(err.status.message, message);
    else assert.match(err.status.message ?? '', message);
    return true;
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('ImagePolicyWebhook', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-imagepolicy-'));
    ca = await createCertificateAuthority({ commonName: 'image-policy-backend-ca' });
    const serving = await issueCertificate(ca, {
      commonName: 'image-policy-backend',
      ipAddresses: ['127.0.0.1'],
      dnsNames: ['localhost'],
      usages: ['server'],
    });
    client = await issueCertificate(ca, { commonName: 'orch-admission', usages: ['client'] });
    server = createServer(
      {
        cert: serving.certPem,
        key: serving.keyPem,
        ca: ca.certPem,
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const body = JSON.parse(text);
          const peer = (req.socket as TLSSocket).getPeerCertificate();
          received.push({
            body,
            headers: req.headers,
            clientCn:
              peer && 'subject' in peer ? (peer.subject?.CN as string | undefined) : undefined,
            url: req.url ?? '',
          });
          handler(body, res);
        });
      }
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/review`;
    await writeFile(join(dir, 'ca.pem'), ca.certPem);
    await writeFile(join(dir, 'client.pem'), client.certPem);
    await writeFile(join(dir, 'client-key.pem'), client.keyPem);
    defaultKubeconfig = await kubeconfig('default.kubeconfig');
  });

  after(async () => {
    for (const p of plugins) p.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    received = [];
    handler = allow;
  });

  describe('ImagePolicyWebhook request (spec: Image review, request)', () => {
    it('row spec.containers[].image: containers then init containers of the pod', async () => {
      const p = plugin({ allowTTL: -1 });
      const obj = pod({
        containers: [
          { name: 'a', image: 'registry.example/a:1' },
          { name: 'b', image: 'registry.example/b:2' },
        ],
        initContainers: [{ name: 'i', image: 'registry.example/init:3' }],
        ephemeralContainers: [{ name: 'e', image: 'registry.example/debug:4' }],
      });
      await p.validate!(request(obj), context());
      assert.equal(received.length, 1);
      const body = received[0]!.body;
      assert.equal(body.apiVersion, 'imagepolicy.orch.io/v1alpha1');
      assert.equal(body.kind, 'ImageReview');
      assert.deepEqual(body.spec.containers, [
        { image: 'registry.example/a:1' },
        { image: 'registry.example/b:2' },
        { image: 'registry.example/init:3' },
      ]);
      assert.equal(received[0]!.headers['content-type'], 'application/json');
      assert.equal(received[0]!.url, '/review');
    });

    it('row spec.containers[].image: the ephemeralcontainers subresource sends the ephemeral containers', async () => {
      const p = plugin({ allowTTL: -1 });
      const obj = pod({
        containers: [{ name: 'a', image: 'registry.example/a:1' }],
        ephemeralContainers: [{ name: 'e', image: 'registry.example/debug:4' }],
      });
      await p.validate!(
        request(obj, { operation: 'UPDATE', subResource: 'ephemeralcontainers', oldObject: obj }),
        context()
      );
      assert.deepEqual(received[0]!.body.spec.containers, [{ image: 'registry.example/debug:4' }]);
    });

    it('row spec.annotations: only the pod annotations matching *.image-policy.orch.io/*', async () => {
      const p = plugin({ allowTTL: -1 });
      const obj = pod(
        { containers: [{ name: 'c', image: 'x' }] },
        {
          'break-glass.image-policy.orch.io/reason': 'incident 42',
          'alpha.image-policy.orch.io/mode': 'audit',
          'image-policy.orch.io/no-dot-prefix': 'skipped',
          'example.com/other': 'skipped',
        }
      );
      await p.validate!(request(obj), context());
      assert.deepEqual(received[0]!.body.spec.annotations, {
        'alpha.image-policy.orch.io/mode': 'audit',
        'break-glass.image-policy.orch.io/reason': 'incident 42',
      });
    });

    it('row spec.namespace: the namespace of the request', async () => {
      const p = plugin({ allowTTL: -1 });
      await p.validate!(request(webPod, { namespace: 'team-b' }), context());
      assert.equal(received[0]!.body.spec.namespace, 'team-b');
    });

    it('pods on create and update only; other resources and subresources are not reviewed', async () => {
      const p = plugin({ allowTTL: -1 });
      const ops: Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
      assert.deepEqual(
        ops.map((o) => p.handles(o)),
        [true, true, false, false]
      );
      await p.validate!(request(webPod, { subResource: 'status', operation: 'UPDATE' }), context());
      await p.validate!(
        request(webPod, { resource: { group: 'apps', version: 'v1', resource: 'pods' } }),
        context()
      );
      await p.validate!(
        request(webPod, { resource: { group: '', version: 'v1', resource: 'configmaps' } }),
        context()
      );
      assert.equal(received.length, 0);
      await p.validate!(request(webPod, { operation: 'UPDATE', oldObject: webPod }), context());
      assert.equal(received.length, 1);
    });
  });

  describe('ImagePolicyWebhook response (spec: Image review, response)', () => {
    it('row status.allowed true: admitted', async () => {
      const p = plugin({});
      const ctx = context();
      await p.validate!(request(webPod), ctx);
      assert.deepEqual(ctx.annotations, {});
    });

    it('row status.allowed false with row status.reason: 403 naming the reason', async () => {
      handler = reply({ allowed: false, reason: 'image registry.example/web:1 is not signed' });
      const p = plugin({});
      await denied(
        p.validate!(request(webPod), context()),
        403,
        'pods "web" is forbidden: image policy webhook backend denied one or more images: image registry.example/web:1 is not signed'
      );
    });

    it('row status.reason absent: 403 with upstream message', async () => {
      handler = reply({ allowed: false });
      const p = plugin({});
      await denied(
        p.validate!(request(webPod), context()),
        403,
        'pods "web" is forbidden: one or more images rejected by webhook backend'
      );
    });

    it('the spec of the reply is ignored', async () => {
      handler = reply(
        { allowed: true },
        { spec: { containers: [{ image: 'other' }], namespace: 'x' } }
      );
      const p = plugin({});
      await p.validate!(request(webPod), context());
    });

    it('status.auditAnnotations become audit annotations under the plugin prefix', async () => {
      handler = reply({ allowed: true, auditAnnotations: { mode: 'audit-required' } });
      const p = plugin({});
      const ctx = context();
      await p.validate!(request(webPod), ctx);
      assert.deepEqual(ctx.annotations, {
        'imagepolicywebhook.image-policy.orch.io/mode': 'audit-required',
      });
    });

    it('the name in the denial comes from the object when the request has none', async () => {
      handler = reply({ allowed: false, reason: 'no' });
      const p = plugin({});
      await denied(
        p.validate!(request(webPod, { name: '' }), context()),
        403,
        /^pods "web" is forbidden/
      );
    });
  });

  describe('ImagePolicyWebhook backend configuration (spec: Image review, backend configuration file)', () => {
    it('row kubeConfigFile: server URL and path, CA file relative to the kubeconfig, client certificate', async () => {
      const p = plugin({});
      await p.validate!(request(webPod), context());
      assert.equal(received[0]!.clientCn, 'orch-admission');
      assert.equal(received[0]!.url, '/review');
    });

    it('row kubeConfigFile: embedded certificate-authority-data and a token', async () => {
      const file = await kubeconfig(
        'token.kubeconfig',
        { token: 's3cret-token' },
        { server: url, 'certificate-authority-data': b64(ca.certPem) }
      );
      const p = newImagePolicyWebhook({ config: { imagePolicy: { kubeConfigFile: file } }, log });
      plugins.push(p);
      await p.validate!(request(webPod), context());
      assert.equal(received[0]!.headers.authorization, 'Bearer s3cret-token');
      assert.equal(received[0]!.clientCn, undefined);
    });

    it('row kubeConfigFile: client-certificate-data and client-key-data', async () => {
      const file = await kubeconfig('data.kubeconfig', {
        'client-certificate-data': b64(client.certPem),
        'client-key-data': b64(client.keyPem),
      });
      const p = newImagePolicyWebhook({ config: { imagePolicy: { kubeConfigFile: file } }, log });
      plugins.push(p);
      await p.validate!(request(webPod), context());
      assert.equal(received[0]!.clientCn, 'orch-admission');
    });

    it('row kubeConfigFile: a backend whose certificate the CA does not sign is a backend failure', async () => {
      const otherCa = await createCertificateAuthority({ commonName: 'another-ca' });
      const file = await kubeconfig(
        'wrong-ca.kubeconfig',
        { token: 't' },
        { server: url, 'certificate-authority-data': b64(otherCa.certPem) }
      );
      const p = newImagePolicyWebhook({ config: { imagePolicy: { kubeConfigFile: file } }, log });
      plugins.push(p);
      await denied(
        p.validate!(request(webPod), context()),
        403,
        /^pods "web" is forbidden: Error contacting webhook: .*certificate/
      );
      assert.equal(received.length, 0);
    });

    it('row kubeConfigFile: missing or unusable is an error at start', async () => {
      const start =
        (config: unknown): (() => unknown) =>
        () =>
          newImagePolicyWebhook({ config, log });
      const cases: [unknown, RegExp][] = [
        [undefined, /no config specified/],
        [{}, /imagePolicy: Required value/],
        [{ imagePolicy: {} }, /imagePolicy.kubeConfigFile: Required value/],
        [{ imagePolicy: { kubeConfigFile: 3 } }, /imagePolicy.kubeConfigFile: Invalid value: 3/],
        [
          { imagePolicy: { kubeConfigFile: join(dir, 'nope.kubeconfig') } },
          /imagePolicy.kubeConfigFile: kubeconfig .*nope.kubeconfig: ENOENT/,
        ],
      ];
      for (const [config, message] of cases) {
        assert.throws(start(config), (err: unknown) => {
          assert.ok(err instanceof ImagePolicyConfigError, String(err));
          assert.match(err.message, message);
          return true;
        });
      }
      const noServer = await kubeconfig(
        'no-server.kubeconfig',
        { token: 't' },
        { 'certificate-authority': 'ca.pem' }
      );
      assert.throws(
        start({ imagePolicy: { kubeConfigFile: noServer } }),
        /clusters\[backend\]\.cluster\.server: Required value/
      );
      const noCaFile = await kubeconfig(
        'no-ca.kubeconfig',
        { token: 't' },
        { server: url, 'certificate-authority': 'missing-ca.pem' }
      );
      assert.throws(
        start({ imagePolicy: { kubeConfigFile: noCaFile } }),
        /certificate-authority: ENOENT.*missing-ca.pem/
      );
      const certNoKey = await kubeconfig('cert-no-key.kubeconfig', {
        'client-certificate': 'client.pem',
      });
      assert.throws(
        start({ imagePolicy: { kubeConfigFile: certNoKey } }),
        /client-key: Required value with client-certificate/
      );
      const tokenAndBasic = await kubeconfig('two-methods.kubeconfig', {
        token: 't',
        username: 'u',
        password: 'p',
      });
      assert.throws(
        start({ imagePolicy: { kubeConfigFile: tokenAndBasic } }),
        /more than one authentication method/
      );
      const notUrl = await kubeconfig(
        'bad-url.kubeconfig',
        { token: 't' },
        { server: 'ftp://127.0.0.1/x' }
      );
      assert.throws(
        start({ imagePolicy: { kubeConfigFile: notUrl } }),
        /server: Invalid value: "ftp:\/\/127.0.0.1\/x": scheme must be https or http/
      );
    });

    it('row allowTTL: an allowed review is cached, the backend is called once', async () => {
      const p = plugin({ allowTTL: 1800 });
      for (let i = 0; i < 3; i++) await p.validate!(request(webPod), context());
      assert.equal(received.length, 1);
      // A different review (another image) is another cache entry.
      await p.validate!(request(pod({ containers: [{ name: 'c', image: 'other:1' }] })), context());
      assert.equal(received.length, 2);
      // Same images, other namespace: the spec differs, so does the key.
      await p.validate!(request(webPod, { namespace: 'team-b' }), context());
      assert.equal(received.length, 3);
    });

    it('row allowTTL: -1 disables the cache', async () => {
      const p = plugin({ allowTTL: -1 });
      for (let i = 0; i < 3; i++) await p.validate!(request(webPod), context());
      assert.equal(received.length, 3);
    });

    it('row allowTTL: after the TTL (seconds) the backend is asked again', async () => {
      const p = plugin({ allowTTL: 1 });
      await p.validate!(request(webPod), context());
      assert.equal(received.length, 1);
      await sleep(1200);
      await p.validate!(request(webPod), context());
      assert.equal(received.length, 2);
    });

    it('row denyTTL: a denial is cached for denyTTL, independently of allowTTL', async () => {
      handler = reply({ allowed: false, reason: 'unsigned' });
      const p = plugin({ allowTTL: -1, denyTTL: 1800 });
      for (let i = 0; i < 3; i++) {
        await denied(p.validate!(request(webPod), context()), 403, /unsigned/);
      }
      assert.equal(received.length, 1);
      handler = allow;
      const other = pod({ containers: [{ name: 'c', image: 'signed:1' }] });
      await p.validate!(request(other), context());
      await p.validate!(request(other), context());
      assert.equal(received.length, 3);
    });

    it('row denyTTL: -1 disables caching of denials; after the TTL the backend is asked again', async () => {
      handler = reply({ allowed: false });
      const off = plugin({ denyTTL: -1 });
      await denied(off.validate!(request(webPod), context()), 403, /rejected/);
      await denied(off.validate!(request(webPod), context()), 403, /rejected/);
      assert.equal(received.length, 2);
      const short = plugin({ denyTTL: 1 });
      await denied(short.validate!(request(webPod), context()), 403, /rejected/);
      assert.equal(received.length, 3);
      await sleep(1200);
      await denied(short.validate!(request(webPod), context()), 403, /rejected/);
      assert.equal(received.length, 4);
    });

    it('row retryBackoff: a backend answering 500 is tried 5 times, then the failure counts', async () => {
      handler = (_b, res) => {
        res.statusCode = 500;
        res.end('backend broke');
      };
      const p = plugin({ retryBackoff: 1 });
      await denied(
        p.validate!(request(webPod), context()),
        403,
        'pods "web" is forbidden: Error contacting webhook: 500: backend broke'
      );
      assert.equal(received.length, 5);
    });

    it('row retryBackoff: 429, 504 and Retry-After are retried; other errors are not', async () => {
      const p = plugin({ retryBackoff: -1 });
      for (const [code, retryAfter, calls] of [
        [429, false, 5],
        [504, false, 5],
        [503, true, 5],
        [503, false, 1],
        [403, false, 1],
        [404, false, 1],
      ] as const) {
        received = [];
        handler = (_b, res) => {
          res.statusCode = code;
          if (retryAfter) res.setHeader('Retry-After', '1');
          res.end();
        };
        await denied(
          p.validate!(request(webPod), context()),
          403,
          `pods "web" is forbidden: Error contacting webhook: ${code}`
        );
        assert.equal(received.length, calls, `status ${code}, Retry-After ${retryAfter}`);
      }
    });

    it('row retryBackoff: a backend that recovers within the retries answers', async () => {
      let n = 0;
      handler = (body, res) => {
        if (++n < 3) {
          res.statusCode = 500;
          res.end();
        } else allow(body, res);
      };
      const p = plugin({ retryBackoff: 1 });
      await p.validate!(request(webPod), context());
      assert.equal(received.length, 3);
    });

    it('row defaultAllow true: a failing backend admits and sets the failed-open audit annotation', async () => {
      handler = (_b, res) => {
        res.statusCode = 500;
        res.end();
      };
      const p = plugin({ retryBackoff: -1, defaultAllow: true });
      const ctx = context();
      await p.validate!(request(webPod), ctx);
      assert.deepEqual(ctx.annotations, { [imagePolicyFailedOpenKey]: 'true' });
      assert.equal(imagePolicyFailedOpenKey, 'imagepolicywebhook.image-policy.orch.io/failed-open');
      // Failures are not cached: the next review asks again.
      await p.validate!(request(webPod), context());
      assert.equal(received.length, 10);
    });

    it('row defaultAllow false (the default): a failing backend denies with 403 naming the failure', async () => {
      handler = (_b, res) => {
        res.statusCode = 500;
        res.end();
      };
      const p = plugin({ retryBackoff: -1 });
      const ctx = context();
      await denied(
        p.validate!(request(webPod), ctx),
        403,
        'pods "web" is forbidden: Error contacting webhook: 500'
      );
      assert.deepEqual(ctx.annotations, {});
    });

    const outOfRange: [Record<string, unknown>, string][] = [
      [
        { allowTTL: 1801 },
        'imagePolicy.allowTTL: Invalid value: 1801: valid value is between 1s and 30m0s, got 30m1s',
      ],
      [
        { allowTTL: -2 },
        'imagePolicy.allowTTL: Invalid value: -2: valid value is between 1s and 30m0s, got -2s',
      ],
      [
        { denyTTL: 3600 },
        'imagePolicy.denyTTL: Invalid value: 3600: valid value is between 1s and 30m0s, got 1h0m0s',
      ],
      [
        { retryBackoff: 300001 },
        'imagePolicy.retryBackoff: Invalid value: 300001: valid value is between 1ms and 5m0s, got 5m0.001s',
      ],
      [{ retryBackoff: 1.5 }, 'imagePolicy.retryBackoff: Invalid value: 1.5: must be an integer'],
      [{ allowTTL: '50s' }, 'imagePolicy.allowTTL: Invalid value: "50s": must be an integer'],
      [
        { defaultAllow: 'yes' },
        'imagePolicy.defaultAllow: Invalid value: "yes": must be true or false',
      ],
      [{ allowTtl: 5 }, 'imagePolicy.allowTtl: Forbidden: unknown field'],
    ];
    for (const [bad, message] of outOfRange) {
      it(`rows allowTTL/denyTTL/retryBackoff/defaultAllow bounds: ${JSON.stringify(bad)} is an error at start`, () => {
        assert.throws(
          () => plugin(bad),
          (err: unknown) => {
            assert.ok(err instanceof ImagePolicyConfigError, String(err));
            assert.equal(err.message, message);
            return true;
          }
        );
      });
    }

    it('rows allowTTL/denyTTL/retryBackoff: 0 or absent takes the defaults, in milliseconds', () => {
      assert.deepEqual(plugin({}).config, {
        kubeConfigFile: defaultKubeconfig,
        allowTtlMs: 300_000,
        denyTtlMs: 30_000,
        retryBackoffMs: 500,
        defaultAllow: false,
      });
      assert.deepEqual(
        plugin({ allowTTL: 0, denyTTL: 0, retryBackoff: 0 }).config.allowTtlMs,
        300_000
      );
      const set = plugin({
        allowTTL: 50,
        denyTTL: 1800,
        retryBackoff: 300000,
        defaultAllow: true,
      }).config;
      assert.deepEqual(
        [set.allowTtlMs, set.denyTtlMs, set.retryBackoffMs, set.defaultAllow],
        [50_000, 1_800_000, 300_000, true]
      );
    });
  });

  describe('ImagePolicyWebhook backend failures', () => {
    it('a backend that does not answer: the call times out, a failure under defaultAllow', async () => {
      handler = () => {
        /* never answers */
      };
      const closed = plugin({ retryBackoff: -1 }, 300);
      await denied(
        closed.validate!(request(webPod), context()),
        403,
        /^pods "web" is forbidden: webhook call timed out/
      );
      assert.equal(received.length, 1);
      const open = plugin({ retryBackoff: -1, defaultAllow: true }, 300);
      const ctx = context();
      await open.validate!(request(webPod), ctx);
      assert.equal(ctx.annotations[imagePolicyFailedOpenKey], 'true');
    });

    it('a backend that starts an answer and stalls: the call times out, not retried', async () => {
      handler = (_b, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"apiVersion": "imagepolicy.orch.io/v1alpha1", ');
      };
      const p = plugin({ retryBackoff: -1 }, 300);
      await denied(
        p.validate!(request(webPod), context()),
        403,
        /^pods "web" is forbidden: webhook call timed out/
      );
      assert.equal(received.length, 1);
    });

    it('the gateway giving up (aborted signal) ends the call', async () => {
      handler = () => {
        /* never answers */
      };
      const p = plugin({ retryBackoff: -1 });
      const ac = new AbortController();
      const call = p.validate!(request(webPod), context(ac.signal));
      while (received.length === 0) await sleep(10);
      ac.abort(new Error('gateway gave up'));
      await denied(call, 403, /^pods "web" is forbidden: .*gave up/);
    });

    const garbage: [string, Handler, RegExp][] = [
      [
        'a body that is not JSON',
        (_b, res) => res.end('<html>oops</html>'),
        /not JSON: <html>oops<\/html>/,
      ],
      ['a JSON array', (_b, res) => res.end('[1,2]'), /webhook reply is not an ImageReview object/],
      [
        'status.allowed not a boolean',
        reply({ allowed: 'yes' }),
        /status.allowed: "yes" is not a boolean/,
      ],
      [
        'status.reason not a string',
        reply({ allowed: false, reason: 7 }),
        /status.reason: 7 is not a string/,
      ],
      [
        'another kind',
        (_b, res) => res.end(JSON.stringify({ kind: 'TokenReview', status: { allowed: true } })),
        /kind "TokenReview", expected "ImageReview"/,
      ],
      [
        'another apiVersion',
        (_b, res) =>
          res.end(
            JSON.stringify({
              apiVersion: 'imagepolicy.k8s.io/v1alpha1',
              kind: 'ImageReview',
              status: { allowed: true },
            })
          ),
        /apiVersion "imagepolicy.k8s.io\/v1alpha1", expected "imagepolicy.orch.io\/v1alpha1"/,
      ],
    ];
    for (const [name, h, message] of garbage) {
      it(`garbage: ${name} is a backend failure (denied; admitted under defaultAllow)`, async () => {
        handler = h;
        const closed = plugin({ retryBackoff: -1 });
        await denied(closed.validate!(request(webPod), context()), 403, message);
        assert.equal(received.length, 1, 'not retried');
        const open = plugin({ retryBackoff: -1, defaultAllow: true });
        const ctx = context();
        await open.validate!(request(webPod), ctx);
        assert.equal(ctx.annotations[imagePolicyFailedOpenKey], 'true');
      });
    }

    it('a backend that is not listening: a failure', async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const port = (probe.address() as AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const file = await kubeconfig(
        'closed.kubeconfig',
        { token: 't' },
        { server: `https://127.0.0.1:${port}/`, 'certificate-authority': 'ca.pem' }
      );
      const p = newImagePolicyWebhook({
        config: { imagePolicy: { kubeConfigFile: file, retryBackoff: -1 } },
        log,
      });
      plugins.push(p);
      await denied(
        p.validate!(request(webPod), context()),
        403,
        /^pods "web" is forbidden: Error contacting webhook: .*ECONNREFUSED/
      );
    });

    it('an object that is not a pod is a bad request', async () => {
      const p = plugin({});
      await assert.rejects(
        p.validate!(request(undefined), context()),
        (err: unknown) => err instanceof StatusError && err.code === 400
      );
    });
  });
});
