// Warnings and denials of a service plugin through the gateway, end to end: an admission
// service built in-process with a plugin of this test's own (implementing the service's plugin
// interface, registered under NodeRestriction's name since a service plugin must carry one of
// the known names, and one whose declared scope is every resource: the gateway skips the call
// for a resource no enabled plugin can act on) that warns, and denies with a custom code when the object asks for it; a
// gateway pointing at it. The warnings reach the client as `Warning: 299` headers within the
// limits of the one recorder; a denial carries the plugin's Status and its warnings; a change
// made by the plugin is in place before the strategy validates. A gateway enabling a plugin the
// service does not serve refuses to start. Both on the shared suite's storage and NATS, in a
// namespace of this file's own.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { after, before, test } from 'node:test';
import { StatusError } from '@orch/apimachinery/errors';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import type { Started } from '@orch/component-base/run';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { newAdmissionConfig } from '@orch/admission/config';
import { admissionOptions } from '@orch/admission/options';
import { AdmissionServer } from '@orch/admission';
import { newGatewayConfig } from '../../config.js';
import { gatewayOptions } from '../../options.js';
import { GatewayServer } from '../../server.js';
import { suiteGatewayArgs } from '../../suite-gateway-args.js';

let suite: Suite;
let admission: Started;
let gateway: Started;
const ns = 'service-warnings';
const cms = `/api/v1/namespaces/${ns}/configmaps`;

const long = (n: number, c: string): string => c.repeat(n);

/** The admission service of this test has only the test plugin: the default-on ones are off. */
const onlyTheTestPlugin = [
  '--disable-admission-plugins=LimitRanger,ServiceAccount,TaintNodesByCondition,PodSecurity,Priority,DefaultTolerationSeconds,DefaultStorageClass,StorageObjectInUseProtection,PersistentVolumeClaimResize,RuntimeClass,DefaultIngressClass,MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook,ResourceQuota',
];

before(async () => {
  suite = await sharedSuite();
  const created = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(created.status, 201, created.text);
  const a = suite.pki.file('admission');
  const options = admissionOptions([
    '--secure-port=0',
    '--bind-address=127.0.0.1',
    `--tls-cert-file=${a.certFile}`,
    `--tls-private-key-file=${a.keyFile}`,
    `--client-ca-file=${suite.pki.caFile}`,
    `--storage-servers=127.0.0.1:${suite.storagePort}`,
    `--nats-url=${suite.nats.url}`,
  ]);
  const log = createLogger('test-admission', 'error');
  const server = new AdmissionServer(
    await newAdmissionConfig(options, log, {
      factories: {
        NodeRestriction: () => ({
          name: 'NodeRestriction',
          handles: (op) => op === 'CREATE',
          async admit(req, ctx) {
            const data = (req.object as { data?: Record<string, string> }).data ?? {};
            const count = Number(data['warnings'] ?? '0');
            ctx.warn('first "quoted" warning');
            for (let i = 0; i < count; i++) ctx.warn(long(300, String.fromCharCode(65 + i)));
            ctx.warn('first "quoted" warning');
            ctx.annotate('seen', 'yes');
            // Changed in place: the service sends back what changed whichever way.
            const labels = req.object?.metadata.labels;
            if (labels?.['fix'] !== undefined) labels['fix'] = 'fixed';
            if (data['deny']) {
              throw new StatusError({
                kind: 'Status',
                apiVersion: 'v1',
                metadata: {},
                status: 'Failure',
                message: `refused by the test plugin: ${data['deny']}`,
                reason: 'Forbidden',
                code: 418,
              });
            }
          },
        }),
      },
    })
  );
  admission = await startInBackground(server);
  const gw = gatewayOptions([
    '--secure-port=0',
    ...suiteGatewayArgs(suite),
    '--authorization-mode=AlwaysAllow',
    `--admission-servers=127.0.0.1:${admission.port}`,
    '--enable-admission-plugins=NodeRestriction',
    ...onlyTheTestPlugin,
  ]);
  gateway = await startInBackground(
    new GatewayServer(await newGatewayConfig(gw, createLogger('test-gateway', 'error')))
  );
});

after(async () => {
  await gateway?.stop();
  await admission?.stop();
  await suite?.stop();
});

/** POST as the admin; the Warning header lines as sent, one per header line. */
function post(
  path: string,
  body: unknown,
  port = gateway.port
): Promise<{ status: number; body: Record<string, unknown>; warnings: string[] }> {
  const admin = suite.pki.file('admin');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        ca: readFileSync(suite.pki.caFile),
        cert: readFileSync(admin.certFile),
        key: readFileSync(admin.keyFile),
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          const warnings: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (res.rawHeaders[i]!.toLowerCase() === 'warning')
              warnings.push(res.rawHeaders[i + 1]!);
          }
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text) as Record<string, unknown>,
            warnings,
          });
        });
      }
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const cm = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});
const texts = (warnings: string[]): string[] =>
  warnings.map((w) => {
    assert.match(w, /^299 - "/);
    return JSON.parse(w.slice('299 - '.length)) as string;
  });

test('a service plugin’s warnings reach the client as Warning: 299 headers, repeats once', async () => {
  const r = await post(cms, cm('w1', { warnings: '1' }));
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.deepEqual(texts(r.warnings), ['first "quoted" warning', long(300, 'A')]);
});

test('warnings past 4096 characters in total: truncated to 256 each, then dropped', async () => {
  // 22 + 17 × 300: the 14th long one passes 4096, all are cut to 256 from then on, and the
  // ones after the total reaches 4096 are dropped.
  const r = await post(cms, cm('w2', { warnings: '17' }));
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const got = texts(r.warnings);
  assert.equal(got[0], 'first "quoted" warning');
  assert.ok(got.slice(1).every((t) => t.length === 256));
  const total = got.reduce((n, t) => n + t.length, 0);
  assert.ok(total >= 4096 && total < 4096 + 256, `total ${total}`);
  assert.equal(got.length, 17, '1 short + 16 long ones cut to 256; the 17th is dropped');
});

test('the mutating phase runs before the strategy validates: a label it fixes is stored', async () => {
  const body = { ...cm('w4', {}), metadata: { name: 'w4', labels: { fix: 'not valid!' } } };
  const r = await post(cms, body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const stored = await suite.request(0, 'GET', `${cms}/w4`);
  assert.deepEqual((stored.body as { metadata: { labels: unknown } }).metadata.labels, {
    fix: 'fixed',
  });
  // The same object through a gateway without the plugin: the strategy refuses the label.
  const refused = await suite.request(0, 'POST', cms, {
    ...body,
    metadata: { ...body.metadata, name: 'w5' },
  });
  assert.equal(refused.status, 422, refused.text);
  assert.match(refused.text, /metadata\.labels/);
});

test('a denial carries the plugin’s code and message, with its warnings; nothing is stored', async () => {
  const r = await post(cms, cm('w3', { deny: 'no teapots' }));
  assert.equal(r.status, 418);
  assert.equal(r.body['message'], 'refused by the test plugin: no teapots');
  assert.deepEqual(texts(r.warnings), ['first "quoted" warning']);
  assert.equal((await suite.request(0, 'GET', `${cms}/w3`)).status, 404);
});

test('a gateway enabling a plugin the admission service does not serve refuses to start, naming it', async () => {
  const bad = gatewayOptions([
    '--secure-port=0',
    ...suiteGatewayArgs(suite),
    '--authorization-mode=AlwaysAllow',
    `--admission-servers=127.0.0.1:${admission.port}`,
    '--enable-admission-plugins=NodeRestriction,AlwaysDeny',
    ...onlyTheTestPlugin,
  ]);
  const server = new GatewayServer(
    await newGatewayConfig(bad, createLogger('test-gateway', 'error'))
  );
  const stop = new AbortController();
  // Were the check to pass, the gateway would serve until stopped: stop it then, and fail.
  const timer = setTimeout(() => stop.abort(), 20_000);
  try {
    await assert.rejects(
      server.run(stop.signal),
      (err: Error) =>
        err.name === 'ServedPluginsMismatchError' &&
        err.message ===
          'admission plugins do not match the admission service (--admission-servers): it does not serve the enabled plugins AlwaysDeny (it serves: NodeRestriction)'
    );
  } finally {
    clearTimeout(timer);
  }
});
