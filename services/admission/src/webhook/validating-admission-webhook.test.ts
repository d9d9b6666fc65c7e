import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { StatusError } from '@orch/apimachinery/errors';

import type { AdmissionRequest, ServicePlugin } from '../interfaces.js';

import type { Fixture } from './test-fixture.js';
import { configuration, fixture, hook, podRequest, recordingContext } from './test-fixture.js';
import type { TestWebhookServer } from './test-webhook-server.js';
import { startTestWebhookServer } from './test-webhook-server.js';
import { compileMatchConditions } from '../policy/index.js';
import { ValidatingAdmissionWebhook } from './validating-admission-webhook.js';
import type { WebhookObject } from './webhook-source.js';

let srv: TestWebhookServer;
let dir: string;
before(async () => {
  srv = await startTestWebhookServer();
  dir = await mkdtemp(join(tmpdir(), 'webhook-test-'));
});
after(async () => {
  await srv.close();
  await rm(dir, { recursive: true, force: true });
});

function setup(hooks: WebhookObject[], config?: unknown): { f: Fixture; plugin: ServicePlugin } {
  const f = fixture(config);
  f.validating.push(configuration('ValidatingWebhookConfiguration', 'v', hooks));
  return { f, plugin: ValidatingAdmissionWebhook(f.deps) };
}

const h = (path: string, over: Partial<WebhookObject> = {}): WebhookObject =>
  hook(srv.port, srv.ca.certPem, path, over);

const caB64 = (): string => Buffer.from(srv.ca.certPem).toString('base64');

async function validate(plugin: ServicePlugin, req: AdmissionRequest = podRequest()) {
  const ctx = recordingContext();
  assert.ok(plugin.validate);
  await plugin.validate(req, ctx);
  return ctx;
}

async function rejects(p: Promise<unknown>, code: number, message: RegExp): Promise<StatusError> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof StatusError, `expected a StatusError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.match(caught.message, message);
  return caught;
}

/** The recorded calls made while `fn` ran. */
async function callsDuring(fn: () => Promise<unknown>) {
  const start = srv.calls.length;
  await fn();
  return srv.calls.slice(start);
}

test('validating webhooks are called in parallel; any denial fails the request; allowed otherwise', async () => {
  const ok = setup([h('/allow'), h('/warn')]);
  const ctx = await validate(ok.plugin);
  assert.deepEqual(ctx.warnings, ['plain warning', 'bell and newline']);

  const { plugin } = setup([
    h('/allow'),
    h('/deny'),
    h('/hang', { timeoutSeconds: 1, failurePolicy: 'Ignore' }),
  ]);
  const start = srv.calls.length;
  await rejects(
    validate(plugin),
    418,
    /^admission webhook "deny.hooks.example.com" denied the request: pods may not be named "bad"$/
  );
  // All three were called before the first answer came back (the hanging one never answers).
  assert.deepEqual(
    srv.calls
      .slice(start)
      .map((c) => c.path)
      .sort(),
    ['/allow', '/deny', '/hang']
  );
});

test('a validating webhook failing open gets the annotation with its name; failing closed is a 500', async () => {
  const open = setup([h('/allow'), h('/garbage', { failurePolicy: 'Ignore' })]);
  const ctx = await validate(open.plugin);
  assert.equal(
    ctx.annotations['failed-open.validating.webhook.admission.orch.io/round_0_index_1'],
    'garbage.hooks.example.com'
  );
  const closed = setup([h('/garbage')]);
  await rejects(
    validate(closed.plugin),
    500,
    /^Internal error occurred: failed calling webhook "garbage.hooks.example.com": received invalid webhook response/
  );
});

test('validating webhooks never apply patches', async () => {
  const { plugin } = setup([h('/mutate')]);
  const req = podRequest();
  await validate(plugin, req);
  assert.deepEqual(req.object?.metadata.labels, { app: 'web' });
});

test('admission review request table: every field of the request sent', async () => {
  const { plugin } = setup([h('/allow')]);
  const old = podRequest().object;
  const req = podRequest({
    operation: 'UPDATE',
    subResource: 'status',
    oldObject: old,
    options: { apiVersion: 'meta.orch.io/v1', kind: 'UpdateOptions', fieldManager: 'kubectl' },
  });
  const rules = [
    { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status'] },
  ];
  const calls = await callsDuring(async () => {
    await validate(setup([h('/allow', { rules })]).plugin, req);
    await validate(plugin);
    await validate(plugin);
  });
  const [first, second, third] = calls.map((c) => c.review);
  const r = first.request;
  assert.equal(first.apiVersion, 'admission.orch.io/v1');
  assert.equal(first.kind, 'AdmissionReview');
  // row uid: unique per call
  assert.match(r.uid, /^[0-9a-f-]{36}$/);
  assert.notEqual(second.request.uid, third.request.uid);
  assert.notEqual(r.uid, second.request.uid);
  // rows kind, resource, subResource, requestKind/requestResource/requestSubResource
  assert.deepEqual(r.kind, { group: '', version: 'v1', kind: 'Pod' });
  assert.deepEqual(r.resource, { group: '', version: 'v1', resource: 'pods' });
  assert.equal(r.subResource, 'status');
  assert.deepEqual(r.requestKind, r.kind);
  assert.deepEqual(r.requestResource, r.resource);
  assert.equal(r.requestSubResource, 'status');
  // rows name, namespace, operation, userInfo
  assert.equal(r.name, 'web-1');
  assert.equal(r.namespace, 'team-a');
  assert.equal(r.operation, 'UPDATE');
  assert.deepEqual(r.userInfo, {
    username: 'alice',
    uid: 'u-1',
    groups: ['devs', 'system:authenticated'],
    extra: { scopes: ['a'] },
  });
  // rows object, oldObject, options, dryRun
  assert.deepEqual(r.object, req.object);
  assert.deepEqual(r.oldObject, old);
  assert.deepEqual(r.options, req.options);
  assert.equal(r.dryRun, false);
  // On CREATE oldObject is null; without a subresource none is sent.
  assert.equal(second.request.oldObject, null);
  assert.equal(second.request.operation, 'CREATE');
  assert.equal('subResource' in second.request, false);

  // row object: null for DELETE; row options: null for CONNECT
  const del = await callsDuring(() =>
    validate(
      plugin,
      podRequest({
        operation: 'DELETE',
        object: undefined,
        oldObject: old,
        options: { apiVersion: 'meta.orch.io/v1', kind: 'DeleteOptions' },
      })
    )
  );
  assert.equal(del[0]?.review.request.object, null);
  assert.deepEqual(del[0]?.review.request.oldObject, old);
  const connect = await callsDuring(() =>
    validate(
      setup([
        h('/allow', {
          rules: [
            {
              operations: ['CONNECT'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['pods/exec'],
            },
          ],
        }),
      ]).plugin,
      podRequest({
        operation: 'CONNECT',
        subResource: 'exec',
        object: { apiVersion: 'v1', kind: 'PodExecOptions', metadata: {} },
        options: undefined,
      })
    )
  );
  assert.equal(connect[0]?.review.request.options, null);
  assert.equal(connect[0]?.review.request.oldObject, null);
});

test('outbound calls: POST with Content-Type application/json', async () => {
  const calls = await callsDuring(() => validate(setup([h('/allow')]).plugin));
  assert.equal(calls[0]?.headers['content-type'], 'application/json');
});

test('webhook configuration table, row admissionReviewVersions: the first version this server speaks is used', async () => {
  const rows: [string, string[], string | undefined][] = [
    ['v1 alone', ['v1'], 'admission.orch.io/v1'],
    ['v1beta1 alone', ['v1beta1'], 'admission.orch.io/v1beta1'],
    ['v1beta1 first', ['v1beta1', 'v1'], 'admission.orch.io/v1beta1'],
    ['an unknown version skipped', ['v2', 'v1'], 'admission.orch.io/v1'],
  ];
  for (const [row, versions, sent] of rows) {
    const calls = await callsDuring(() =>
      validate(setup([h('/allow', { admissionReviewVersions: versions })]).plugin)
    );
    assert.equal(calls[0]?.review.apiVersion, sent, row);
  }
  const none = setup([h('/allow', { admissionReviewVersions: ['v2'] })]);
  await rejects(
    validate(none.plugin),
    500,
    /failed calling webhook "allow.hooks.example.com": webhook does not accept known AdmissionReview versions/
  );
  // The reply must be of the version sent (v1beta1 too).
  const beta = setup([h('/wrong-version', { admissionReviewVersions: ['v1beta1'] })]);
  await rejects(
    validate(beta.plugin),
    500,
    /expected webhook response of admission.orch.io\/v1beta1/
  );
  const betaUid = setup([h('/wrong-uid', { admissionReviewVersions: ['v1beta1'] })]);
  await rejects(validate(betaUid.plugin), 500, /expected response.uid/);
});

test('webhook configuration table, row clientConfig.url: https only, no user info, fragment or query; the path is called', async () => {
  const calls = await callsDuring(() =>
    validate(
      setup([
        h('/allow', {
          clientConfig: { url: `https://localhost:${srv.port}/allow`, caBundle: caB64() },
        }),
      ]).plugin
    )
  );
  assert.equal(calls[0]?.path, '/allow');
  const rows: [string, string, RegExp][] = [
    ['http scheme', `http://127.0.0.1:${srv.port}/allow`, /'https' is the only allowed URL scheme/],
    ['user info', `https://u:p@127.0.0.1:${srv.port}/allow`, /user information is not permitted/],
    ['fragment', `https://127.0.0.1:${srv.port}/allow#x`, /fragments are not permitted/],
    ['query', `https://127.0.0.1:${srv.port}/allow?x=1`, /query parameters are not permitted/],
    ['not a URL', 'not a url', /invalid url/],
  ];
  for (const [row, url, message] of rows) {
    const { plugin } = setup([h('/allow', { clientConfig: { url, caBundle: caB64() } })]);
    const err = await rejects(
      validate(plugin),
      500,
      /failed calling webhook "allow.hooks.example.com": could not get REST client/
    );
    assert.match(err.message, message, row);
  }
});

test('webhook configuration table, row clientConfig.service: <name>.<namespace>.svc through serviceAddresses, port default 443, path default /', async () => {
  const target = `127.0.0.1:${srv.port}`;
  const service = (svc: Record<string, unknown>) => ({
    clientConfig: { service: svc as never, caBundle: caB64() },
  });
  const rows: [string, Record<string, string>, Record<string, unknown>, string][] = [
    [
      'port and path given, address by name and port',
      { 'hook.webhooks.svc:8443': target },
      { name: 'hook', namespace: 'webhooks', port: 8443, path: '/allow' },
      '/allow',
    ],
    [
      'path default /',
      { 'hook.webhooks.svc:8443': target },
      { name: 'hook', namespace: 'webhooks', port: 8443 },
      '/',
    ],
    [
      'port default 443, address by name alone',
      { 'hook.webhooks.svc': target },
      { name: 'hook', namespace: 'webhooks', path: '/allow' },
      '/allow',
    ],
  ];
  for (const [row, serviceAddresses, svc, path] of rows) {
    const config = {
      apiVersion: 'apiserver.config.orch.io/v1',
      kind: 'WebhookAdmissionConfiguration',
      serviceAddresses,
    };
    const calls = await callsDuring(() =>
      validate(setup([h('/allow', service(svc))], config).plugin)
    );
    assert.equal(calls[0]?.path, path, row);
    const port = (svc['port'] as number | undefined) ?? 443;
    assert.equal(
      calls[0]?.headers.host,
      port === 443 ? 'hook.webhooks.svc' : `hook.webhooks.svc:${port}`,
      row
    );
  }
  // The server certificate must be valid for <name>.<namespace>.svc.
  const config = {
    apiVersion: 'apiserver.config.orch.io/v1',
    kind: 'WebhookAdmissionConfiguration',
    serviceAddresses: { 'other.webhooks.svc:443': target },
  };
  const wrongName = setup(
    [h('/allow', service({ name: 'other', namespace: 'webhooks', path: '/allow' }))],
    config
  );
  await rejects(
    validate(wrongName.plugin),
    500,
    /failed calling webhook "allow.hooks.example.com": failed to call webhook: Post "https:\/\/other.webhooks.svc:443\/allow": .*(altnames|other.webhooks.svc)/
  );
  // No serviceAddresses entry: the name is resolved by the host's resolver (no such host here).
  const unmapped = setup([
    h('/allow', service({ name: 'nowhere', namespace: 'webhooks', path: '/allow' })),
  ]);
  await rejects(
    validate(unmapped.plugin),
    500,
    /Post "https:\/\/nowhere.webhooks.svc:443\/allow": .*(ENOTFOUND|EAI_AGAIN)/
  );
});

test('webhook configuration table, row clientConfig.caBundle: the bundle (base64 or PEM) is trusted; a wrong CA or none fails', async () => {
  await validate(
    setup([
      h('/allow', {
        clientConfig: { url: `https://127.0.0.1:${srv.port}/allow`, caBundle: caB64() },
      }),
    ]).plugin
  );
  await validate(
    setup([
      h('/allow', {
        clientConfig: { url: `https://127.0.0.1:${srv.port}/allow`, caBundle: srv.ca.certPem },
      }),
    ]).plugin
  );
  const wrong = setup([
    h('/allow', {
      clientConfig: { url: `https://127.0.0.1:${srv.port}/allow`, caBundle: srv.otherCa.certPem },
    }),
  ]);
  await rejects(
    validate(wrong.plugin),
    500,
    /failed calling webhook "allow.hooks.example.com": failed to call webhook: Post .*certificate/
  );
  const none = setup([
    h('/allow', { clientConfig: { url: `https://127.0.0.1:${srv.port}/allow` } }),
  ]);
  await rejects(
    validate(none.plugin),
    500,
    /failed calling webhook "allow.hooks.example.com": failed to call webhook: Post .*certificate/
  );
});

test('credential file: client certificate, token, basic credentials, wildcard and default names', async () => {
  const certFile = join(dir, 'client.crt');
  const keyFile = join(dir, 'client.key');
  const tokenFile = join(dir, 'token');
  await writeFile(certFile, srv.clientCert.certPem);
  await writeFile(keyFile, srv.clientCert.keyPem);
  await writeFile(tokenFile, 'file-token\n');
  const kubeconfig = join(dir, 'credentials.yaml');
  await writeFile(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'users:',
      `- name: "127.0.0.1:${srv.port}"`,
      '  user:',
      '    token: url-token',
      '- name: "hook.webhooks.svc:8443"',
      '  user:',
      '    client-certificate: client.crt',
      `    client-key: ${keyFile}`,
      '- name: "*.webhooks.svc:9443"',
      '  user:',
      '    username: admission',
      '    password: s3cret',
      '- name: "*.svc"',
      '  user:',
      '    tokenFile: token',
      '- name: "*"',
      '  user:',
      `    client-certificate-data: ${Buffer.from(srv.clientCert.certPem).toString('base64')}`,
      `    client-key-data: ${Buffer.from(srv.clientCert.keyPem).toString('base64')}`,
    ].join('\n')
  );
  const target = `127.0.0.1:${srv.port}`;
  const config = {
    apiVersion: 'apiserver.config.orch.io/v1',
    kind: 'WebhookAdmissionConfiguration',
    kubeConfigFile: kubeconfig,
    serviceAddresses: {
      'hook.webhooks.svc:8443': target,
      'hook.webhooks.svc:9443': target,
      'hook.webhooks.svc': target,
    },
  };
  const svc = (name: string, namespace: string, port?: number) => ({
    clientConfig: { service: { name, namespace, port, path: '/allow' }, caBundle: caB64() },
  });
  const rows: [
    string,
    Partial<WebhookObject>,
    (c: { headers: Record<string, unknown>; clientCN: string | undefined }) => void,
  ][] = [
    [
      'URL host:port: token',
      {},
      (c) => assert.equal(c.headers['authorization'], 'Bearer url-token'),
    ],
    [
      'service name with port: client certificate (files)',
      svc('hook', 'webhooks', 8443),
      (c) => {
        assert.equal(c.clientCN, 'orch-admission');
        assert.equal(c.headers['authorization'], undefined);
      },
    ],
    [
      'service name wildcard with port: basic credentials',
      svc('hook', 'webhooks', 9443),
      (c) =>
        assert.equal(
          c.headers['authorization'],
          `Basic ${Buffer.from('admission:s3cret').toString('base64')}`
        ),
    ],
    [
      'service on 443 matches *.svc: tokenFile',
      svc('hook', 'webhooks'),
      (c) => assert.equal(c.headers['authorization'], 'Bearer file-token'),
    ],
    [
      'localhost URL: default *: client certificate (data)',
      { clientConfig: { url: `https://localhost:${srv.port}/allow`, caBundle: caB64() } },
      (c) => assert.equal(c.clientCN, 'orch-admission'),
    ],
  ];
  for (const [row, over, check] of rows) {
    const calls = await callsDuring(() => validate(setup([h('/allow', over)], config).plugin));
    assert.equal(calls.length, 1, row);
    check(calls[0] as never);
  }
});

test('webhook configuration table, rows rules[], namespaceSelector, objectSelector: webhooks that do not match are not called', async () => {
  const rows: [string, Partial<WebhookObject>, AdmissionRequest, number][] = [
    ['rules match', {}, podRequest(), 1],
    [
      'rules of another resource',
      {
        rules: [
          { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['services'] },
        ],
      },
      podRequest(),
      0,
    ],
    [
      'rules of another operation',
      {
        rules: [
          { operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] },
        ],
      },
      podRequest(),
      0,
    ],
    [
      'namespaceSelector matches',
      { namespaceSelector: { matchLabels: { env: 'prod' } } },
      podRequest(),
      1,
    ],
    [
      'namespaceSelector does not match',
      { namespaceSelector: { matchLabels: { env: 'dev' } } },
      podRequest(),
      0,
    ],
    [
      'objectSelector matches',
      { objectSelector: { matchLabels: { app: 'web' } } },
      podRequest(),
      1,
    ],
    [
      'objectSelector does not match',
      { objectSelector: { matchLabels: { app: 'db' } } },
      podRequest(),
      0,
    ],
    ['matchPolicy Exact', { matchPolicy: 'Exact' }, podRequest(), 1],
    [
      'selectors and defaults missing (tolerated)',
      {
        namespaceSelector: undefined,
        objectSelector: undefined,
        matchPolicy: undefined,
        failurePolicy: undefined,
        timeoutSeconds: undefined,
      },
      podRequest(),
      1,
    ],
  ];
  for (const [row, over, req, n] of rows) {
    const calls = await callsDuring(() => validate(setup([h('/allow', over)]).plugin, req));
    assert.equal(calls.length, n, row);
  }
  // A namespaced request in an unknown namespace, for a webhook with a namespaceSelector.
  const nsGone = setup([h('/allow', { namespaceSelector: { matchLabels: { env: 'prod' } } })]);
  await rejects(
    validate(nsGone.plugin, podRequest({ namespace: 'gone' })),
    404,
    /namespaces "gone" not found/
  );
});

test('configurations are watched: compiled once per uid+resourceVersion, changes take effect, removals stop calls', async () => {
  const f = fixture();
  const plugin = ValidatingAdmissionWebhook(f.deps);
  assert.equal((await callsDuring(() => validate(plugin))).length, 0, 'no configurations');
  f.validating.push(configuration('ValidatingWebhookConfiguration', 'c', [h('/allow')]));
  assert.equal((await callsDuring(() => validate(plugin))).length, 1);
  // The same compiled webhook, so the same client and its kept-alive connection.
  const again = await callsDuring(async () => {
    await validate(plugin);
    await validate(plugin);
  });
  assert.equal(again.length, 2);
  assert.equal(
    again[0]?.remotePort,
    again[1]?.remotePort,
    'one connection: the client was not rebuilt'
  );
  f.validating[0] = configuration('ValidatingWebhookConfiguration', 'c', [h('/deny')]);
  await rejects(validate(plugin), 418, /denied/);
  f.validating.length = 0;
  assert.equal((await callsDuring(() => validate(plugin))).length, 0, 'removed');
});

test('the plugin configuration is checked: apiVersion, kind, kubeConfigFile, serviceAddresses', () => {
  const rows: [string, unknown, RegExp][] = [
    [
      'apiVersion',
      { apiVersion: 'v1', kind: 'WebhookAdmissionConfiguration' },
      /ValidatingAdmissionWebhook configuration: apiVersion: must be "apiserver.config.orch.io\/v1"/,
    ],
    [
      'kind',
      { apiVersion: 'apiserver.config.orch.io/v1', kind: 'Other' },
      /kind: must be "WebhookAdmissionConfiguration"/,
    ],
    [
      'relative kubeConfigFile',
      {
        apiVersion: 'apiserver.config.orch.io/v1',
        kind: 'WebhookAdmissionConfiguration',
        kubeConfigFile: 'creds.yaml',
      },
      /kubeConfigFile: must be an absolute file path/,
    ],
    [
      'missing kubeConfigFile',
      {
        apiVersion: 'apiserver.config.orch.io/v1',
        kind: 'WebhookAdmissionConfiguration',
        kubeConfigFile: '/nonexistent/creds.yaml',
      },
      /kubeConfigFile: cannot read \/nonexistent\/creds.yaml/,
    ],
    [
      'serviceAddresses key',
      {
        apiVersion: 'apiserver.config.orch.io/v1',
        kind: 'WebhookAdmissionConfiguration',
        serviceAddresses: { 'hook.webhooks': '127.0.0.1:1' },
      },
      /serviceAddresses\["hook.webhooks"\]: the key must be/,
    ],
    [
      'serviceAddresses value',
      {
        apiVersion: 'apiserver.config.orch.io/v1',
        kind: 'WebhookAdmissionConfiguration',
        serviceAddresses: { 'hook.webhooks.svc': 'nohostport' },
      },
      /the value must be host:port/,
    ],
    [
      'unknown field',
      {
        apiVersion: 'apiserver.config.orch.io/v1',
        kind: 'WebhookAdmissionConfiguration',
        kubeconfig: '/x',
      },
      /kubeconfig: unknown field/,
    ],
  ];
  for (const [row, config, message] of rows) {
    assert.throws(() => ValidatingAdmissionWebhook(fixture(config).deps), message, row);
  }
});

test('matchConditions (CEL, compiled by the policy module): all true calls, any false skips, an error follows failurePolicy', async () => {
  const withCel = (over: Partial<WebhookObject>) => {
    const s = setup([h('/allow', over)]);
    s.f.deps.matchConditions = compileMatchConditions;
    return { ...s, plugin: ValidatingAdmissionWebhook(s.f.deps) };
  };
  const conditions = (...expressions: string[]) => ({
    matchConditions: expressions.map((expression, i) => ({ name: `c${i}`, expression })),
  });
  const rows: [string, string[], number][] = [
    [
      'all true',
      ["object.metadata.labels.app == 'web'", "request.userInfo.username == 'alice'"],
      1,
    ],
    ['one false', ["object.metadata.labels.app == 'web'", "request.operation == 'DELETE'"], 0],
    ['a false wins over an error', ["object.metadata.labels.missing == 'x'", 'false'], 0],
  ];
  for (const [row, exprs, n] of rows) {
    const calls = await callsDuring(() => validate(withCel(conditions(...exprs)).plugin));
    assert.equal(calls.length, n, row);
  }
  const failing = conditions("object.metadata.labels.missing == 'x'");
  const ignored = await callsDuring(() =>
    validate(withCel({ ...failing, failurePolicy: 'Ignore' }).plugin)
  );
  assert.equal(ignored.length, 0, 'an evaluation error under Ignore skips the webhook');
  await rejects(validate(withCel(failing).plugin), 403, /allow\.hooks\.example\.com/);
});
