// API versions over time against a real gateway (etcd, NATS, TLS): --runtime-config removes a
// version or one resource from discovery, OpenAPI v2/v3 and the REST paths; every row of the
// spec's removed-versions table answers 404 naming its replacement; a deprecated version gets
// the Warning header, the audit annotations and apiserver_requested_deprecated_apis
// (SelfSubjectReview v1beta1, turned on); SelfSubjectReview answers the caller.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { InvalidOptionsError } from '@orch/component-base/flags';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import { newGatewayConfig } from '../config.js';
import { gatewayOptions } from '../options.js';
import { GatewayServer } from '../server.js';
import { suiteGatewayArgs } from '../suite-gateway-args.js';
import { builtinResources } from '@orch/apimachinery/registry';
import { removedVersionMessage, removedVersions } from './removed-versions.js';
import type { ServedVersions } from './removed-versions.js';
import { enabledResources } from './resource-config.js';

let suite: Suite;
let gateway: Awaited<ReturnType<typeof startInBackground>> & { port: number };
let dir = '';
let auditLog = '';
const runtimeConfig =
  'events.orch.io/v1=false,v1/configmaps=false,authentication.orch.io/v1beta1,storage.orch.io/v1beta1';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => any;
}

function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<Answer> {
  const admin = suite.pki.file('admin');
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, `https://127.0.0.1:${gateway.port}`),
      {
        method,
        ca: readFileSync(suite.pki.caFile),
        cert: readFileSync(admin.certFile),
        key: readFileSync(admin.keyFile),
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => JSON.parse(text),
          });
        });
      }
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

before(async () => {
  suite = await sharedSuite();
  dir = await mkdtemp(join(tmpdir(), 'orch-versions-'));
  auditLog = join(dir, 'audit.log');
  const options = gatewayOptions([
    '--secure-port=0',
    ...suiteGatewayArgs(suite),
    '--authorization-mode=AlwaysAllow',
    `--audit-log-path=${auditLog}`,
    '--feature-gates=ConsistentListFromCache=false',
    `--runtime-config=${runtimeConfig}`,
  ]);
  gateway = (await startInBackground(
    new GatewayServer(await newGatewayConfig(options, createLogger('test-gateway')))
  )) as typeof gateway;
});

after(async () => {
  await gateway?.stop();
  await suite?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('--runtime-config', () => {
  it('a version turned off is gone from discovery, OpenAPI v2 and v3 and its REST paths', async () => {
    const groups = (await call('GET', '/apis')).json();
    assert.ok(!groups.groups.some((g: { name: string }) => g.name === 'events.orch.io'));
    assert.equal((await call('GET', '/apis/events.orch.io')).status, 404);
    assert.equal((await call('GET', '/apis/events.orch.io/v1')).status, 404);
    assert.equal((await call('GET', '/apis/events.orch.io/v1/events')).status, 404);
    assert.equal(
      (await call('GET', '/apis/events.orch.io/v1/namespaces/default/events')).status,
      404
    );
    const v3 = (await call('GET', '/openapi/v3')).json();
    assert.ok(!Object.keys(v3.paths).some((p) => p.includes('events.orch.io')));
    assert.ok(Object.keys(v3.paths).includes('apis/coordination.orch.io/v1'));
    const v2 = (await call('GET', '/openapi/v2')).text;
    assert.doesNotMatch(v2, /\/apis\/events\.orch\.io\/v1/);
    assert.match(v2, /\/apis\/coordination\.orch\.io\/v1\/leases/);
    // The core Event of v1 is still served.
    assert.equal((await call('GET', '/api/v1/namespaces/default/events')).status, 200);
  });

  it('a resource turned off is gone, the rest of its version served', async () => {
    const core = (await call('GET', '/api/v1')).json();
    const names = core.resources.map((r: { name: string }) => r.name);
    assert.ok(!names.includes('configmaps'));
    assert.ok(names.includes('secrets'));
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps')).status, 404);
    assert.equal((await call('GET', '/api/v1/namespaces/default/secrets')).status, 200);
    const v2 = (await call('GET', '/openapi/v2')).text;
    assert.doesNotMatch(v2, /\/api\/v1\/namespaces\/\{namespace\}\/configmaps/);
  });

  const badRows: [string, RegExp][] = [
    ['nope.orch.io/v1', /--runtime-config: unknown group version "nope.orch.io\/v1"/],
    ['apps/v1/nopes=false', /--runtime-config: unknown resource "apps\/v1\/nopes"/],
    ['apps/v1=maybe', /--runtime-config: invalid value of apps\/v1: "maybe"/],
    ['apps/v1/deployments/status', /--runtime-config: invalid key "apps\/v1\/deployments\/status"/],
  ];
  for (const [flag, message] of badRows) {
    it(`--runtime-config=${flag} stops the start naming the key`, () => {
      assert.throws(
        () =>
          gatewayOptions([
            ...suiteGatewayArgs(suite),
            '--authorization-mode=AlwaysAllow',
            `--runtime-config=${flag}`,
          ]),
        (err: unknown) => err instanceof InvalidOptionsError && message.test(err.message)
      );
    });
  }
});

describe('removed versions (spec table, one row each)', () => {
  // What this gateway serves: the same derivation from its --runtime-config (events.orch.io/v1
  // is off here, so the Event v1beta1 row says its replacement is not served either).
  const served: ServedVersions = (group, resource) =>
    enabledResources(builtinResources, runtimeConfig)
      .filter((d) => d.group === group && d.resource === resource)
      .map((d) => d.version);
  for (const r of removedVersions) {
    const gv = r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
    it(`${r.removedIn} ${r.kind} ${r.group}/${r.version}: 404 naming ${r.replacement}`, async () => {
      const res = await call('GET', `/${gv}/${r.resources[0]}`);
      assert.equal(res.status, 404);
      const status = res.json();
      assert.equal(status.kind, 'Status');
      assert.equal(status.reason, 'NotFound');
      assert.equal(status.message, removedVersionMessage(r, served));
      assert.ok(
        status.message.startsWith(
          `${r.kind} ${r.group}/${r.version} was removed in v${r.removedIn} and is not served; `
        ),
        status.message
      );
    });
  }

  it('the message of a row reads as the spec asks', () => {
    const ingress = removedVersions.find((r) => r.group === 'extensions' && r.kind === 'Ingress')!;
    assert.equal(
      removedVersionMessage(ingress, served),
      'Ingress extensions/v1beta1 was removed in v1.22 and is not served; use networking.orch.io/v1 (available since 1.19)'
    );
  });
});

describe('SelfSubjectReview and a deprecated version', () => {
  it('v1 answers who the caller is; v1beta1 is off by default (beta introduced 1.27)', async () => {
    const r = await call('POST', '/apis/authentication.orch.io/v1/selfsubjectreviews', {
      apiVersion: 'authentication.orch.io/v1',
      kind: 'SelfSubjectReview',
    });
    assert.equal(r.status, 201, r.text);
    const body = r.json();
    assert.equal(body.apiVersion, 'authentication.orch.io/v1');
    assert.equal(body.kind, 'SelfSubjectReview');
    assert.equal(body.status.userInfo.username, 'orch-admin');
    assert.ok(body.status.userInfo.groups.includes('system:masters'));
    assert.ok(body.status.userInfo.groups.includes('system:authenticated'));
    assert.equal(r.headers['warning'], undefined);
    // The suite's own gateway runs without --runtime-config.
    const off = await suite.request(
      0,
      'POST',
      '/apis/authentication.orch.io/v1beta1/selfsubjectreviews',
      {
        apiVersion: 'authentication.orch.io/v1beta1',
        kind: 'SelfSubjectReview',
      }
    );
    assert.equal(off.status, 404);
    const groups = await suite.request(0, 'GET', '/apis/authentication.orch.io');
    assert.deepEqual(
      (groups.body as { versions: { version: string }[] }).versions.map((v) => v.version),
      ['v1']
    );
  });

  it('v1beta1 turned on: Warning 299, audit annotations, apiserver_requested_deprecated_apis', async () => {
    const res = await call('POST', '/apis/authentication.orch.io/v1beta1/selfsubjectreviews', {
      apiVersion: 'authentication.orch.io/v1beta1',
      kind: 'SelfSubjectReview',
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json().apiVersion, 'authentication.orch.io/v1beta1');
    assert.equal(res.json().status.userInfo.username, 'orch-admin');
    assert.equal(
      res.headers['warning'],
      '299 - "authentication.orch.io/v1beta1 SelfSubjectReview is deprecated in v1.30+, unavailable in v1.33+; use authentication.orch.io/v1 SelfSubjectReview"'
    );
    // A version that is not deprecated gets no warning.
    assert.equal(
      (await call('GET', '/api/v1/namespaces/default/secrets')).headers['warning'],
      undefined
    );
    const metrics = (await call('GET', '/metrics')).text;
    assert.match(
      metrics,
      /apiserver_requested_deprecated_apis\{group="authentication.orch.io",version="v1beta1",resource="selfsubjectreviews",subresource="",removed_release="1.33"\} 1/
    );
    assert.match(metrics, /# HELP apiserver_requested_deprecated_apis \[STABLE\] /);
    const events = (await readFile(auditLog, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const reviews = events.filter(
      (e) => e.requestURI === '/apis/authentication.orch.io/v1beta1/selfsubjectreviews'
    );
    assert.equal(reviews.length, 1);
    const allowed = {
      'authorization.orch.io/decision': 'allow',
      'authorization.orch.io/reason': '',
    };
    assert.deepEqual(reviews[0].annotations, {
      ...allowed,
      'orch.io/deprecated': 'true',
      'orch.io/removed-release': '1.33',
    });
    const secrets = events.find((e) => e.objectRef?.resource === 'secrets');
    assert.deepEqual(secrets?.annotations, allowed);
  });
});

describe('VolumeAttributesClass, storage.orch.io/v1beta1 (beta introduced 1.31)', () => {
  const path = '/apis/storage.orch.io/v1beta1/volumeattributesclasses';
  const vac = {
    apiVersion: 'storage.orch.io/v1beta1',
    kind: 'VolumeAttributesClass',
    metadata: { name: `gold-${Date.now().toString(36)}` },
    driverName: 'csi.example.com',
    parameters: { iops: '5000' },
  };

  it('off by default: 404, and discovery of storage.orch.io lists only v1', async () => {
    assert.equal((await suite.request(0, 'GET', path)).status, 404);
    const group = await suite.request(0, 'GET', '/apis/storage.orch.io');
    assert.deepEqual(
      (group.body as { versions: { version: string }[] }).versions.map((v) => v.version),
      ['v1']
    );
  });

  it('turned on: discovered with its short name, created, printed, its fields immutable', async () => {
    const discovery = (await call('GET', '/apis/storage.orch.io/v1beta1')).json();
    assert.deepEqual(
      discovery.resources.map((r: { name: string; shortNames?: string[] }) => [
        r.name,
        r.shortNames,
      ]),
      [['volumeattributesclasses', ['vac']]]
    );
    const created = await call('POST', path, vac);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers['warning'], undefined);
    const table = await call('GET', `${path}/${vac.metadata.name}`, undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    assert.deepEqual(
      table.json().columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'DriverName', 'Age']
    );
    assert.deepEqual(table.json().rows[0].cells.slice(0, 2), [
      vac.metadata.name,
      'csi.example.com',
    ]);
    const changed = await call('PUT', `${path}/${vac.metadata.name}`, {
      ...created.json(),
      parameters: { iops: '1' },
    });
    assert.equal(changed.status, 422, changed.text);
    assert.deepEqual(changed.json().details.causes, [
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: updates to parameters are forbidden.',
        field: 'parameters',
      },
    ]);
    const empty = await call('POST', path, {
      ...vac,
      metadata: { name: `${vac.metadata.name}-empty` },
      parameters: {},
    });
    assert.equal(empty.status, 422, empty.text);
    assert.equal(
      empty.json().message,
      `VolumeAttributesClass.storage.orch.io "${vac.metadata.name}-empty" is invalid: parameters: Required value: must contain at least one key/value pair`
    );
    assert.equal((await call('DELETE', `${path}/${vac.metadata.name}`)).status, 200);
  });
});

describe('--feature-gates', () => {
  it('ConsistentListFromCache=false: the gauge says so and consistent lists are not served by the cache', async () => {
    for (let i = 0; i < 3; i++) {
      assert.equal((await call('GET', '/api/v1/namespaces/default/secrets')).status, 200);
    }
    const metrics = (await call('GET', '/metrics')).text;
    assert.doesNotMatch(
      metrics,
      /orch_gateway_watch_cache_consistent_read_total\{resource="secrets"/
    );
    assert.match(
      metrics,
      /kubernetes_feature_enabled\{name="ConsistentListFromCache",stage="BETA"\} 0/
    );
    assert.match(metrics, /kubernetes_feature_enabled\{name="WatchBookmark",stage=""\} 1/);
  });
});
