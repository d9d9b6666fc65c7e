// The in-gateway admission plugins end to end against a real suite: NamespaceLifecycle refuses
// content in a missing or terminating namespace and the deletion of a system namespace,
// RBACEscalationPrevention refuses a role granting what its writer does not hold, and
// --disable-admission-plugins=NamespaceLifecycle takes namespace lifecycle out of the chain;
// NamespaceAutoProvision creates a missing namespace (not on a dry run), NamespaceExists refuses
// content in a missing one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { after, before, test } from 'node:test';
import { createLogger } from '@orch/component-base/logs';
import type { Logger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import type { Started } from '@orch/component-base/run';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { newGatewayConfig } from '../config.js';
import { gatewayOptions } from '../options.js';
import { suiteGatewayArgs } from '../suite-gateway-args.js';
import { GatewayServer } from '../server.js';

let suite: Suite;
const servers: Started[] = [];
const rbac = '/apis/rbac.authorization.orch.io/v1';
const messageOf = (b: unknown): string => (b as { message?: string }).message ?? '';
const reasonOf = (b: unknown): string => (b as { reason?: string }).reason ?? '';
const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: '1' },
});
const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

before(async () => {
  suite = await startSuite();
});

after(async () => {
  for (const s of servers) await s.stop();
  await suite.stop();
});

test('NamespaceLifecycle: no content in a missing namespace, nor in a terminating one', async () => {
  const missing = await suite.request(0, 'POST', '/api/v1/namespaces/nowhere/configmaps', cm('x'));
  assert.equal(missing.status, 404);
  assert.equal(messageOf(missing.body), 'namespaces "nowhere" not found');

  assert.equal(
    (await suite.request(0, 'POST', '/api/v1/namespaces', namespace('going'))).status,
    201
  );
  assert.equal(
    (await suite.request(0, 'POST', '/api/v1/namespaces/going/configmaps', cm('before'))).status,
    201
  );
  // No controllers in this suite: the namespace stays Terminating, waiting for its finalizer.
  // 200 with the namespace, as upstream's delete handler (202 only for orphanDependents=false).
  assert.equal((await suite.request(0, 'DELETE', '/api/v1/namespaces/going')).status, 200);
  const ns = await suite.request(0, 'GET', '/api/v1/namespaces/going');
  assert.equal(ns.status, 200);
  assert.ok((ns.body as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp);
  const refused = await suite.request(0, 'POST', '/api/v1/namespaces/going/configmaps', cm('x'));
  assert.equal(refused.status, 403);
  assert.equal(reasonOf(refused.body), 'Forbidden');
  assert.equal(
    messageOf(refused.body),
    'configmaps "x" is forbidden: unable to create new content in namespace going because it is being terminated'
  );
  // Dry run runs admission too.
  const dry = await suite.request(
    0,
    'POST',
    '/api/v1/namespaces/going/configmaps?dryRun=All',
    cm('y')
  );
  assert.equal(dry.status, 403);
  // Updates of what is already there are not its business.
  const updated = await suite.request(
    0,
    'PATCH',
    '/api/v1/namespaces/going/configmaps/before',
    { data: { a: '2' } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(updated.status, 200, updated.text);
});

test('NamespaceLifecycle: the system namespaces cannot be deleted', async () => {
  const r = await suite.request(0, 'DELETE', '/api/v1/namespaces/orch-system');
  assert.equal(r.status, 403);
  assert.equal(
    messageOf(r.body),
    'namespaces "orch-system" is forbidden: this namespace may not be deleted'
  );
});

test('RBACEscalationPrevention: a user who may write roles cannot grant what they do not hold', async () => {
  const ns = 'escalation';
  assert.equal((await suite.request(0, 'POST', '/api/v1/namespaces', namespace(ns))).status, 201);
  const writeRoles = {
    apiGroups: ['rbac.authorization.orch.io'],
    resources: ['roles'],
    verbs: ['create'],
  };
  const role = (name: string, rules: unknown[]) => ({
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'Role',
    metadata: { name },
    rules,
  });
  assert.equal(
    (
      await suite.request(
        0,
        'POST',
        `${rbac}/namespaces/${ns}/roles`,
        role('role-writer', [writeRoles])
      )
    ).status,
    201
  );
  const binding = {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'alice-role-writer' },
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'role-writer' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'alice' }],
  };
  assert.equal(
    (await suite.request(0, 'POST', `${rbac}/namespaces/${ns}/rolebindings`, binding)).status,
    201
  );
  const asAlice = { 'Impersonate-User': 'alice' };
  const create = (name: string, rules: unknown[], query = '') =>
    suite.request(0, 'POST', `${rbac}/namespaces/${ns}/roles${query}`, role(name, rules), asAlice);
  // What she holds she may grant (once the authorizer has seen her binding).
  await waitFor(
    'alice may create roles',
    async () => {
      const r = await create('held', [writeRoles], '?dryRun=All');
      return r.status === 201;
    },
    { timeoutMs: 10_000 }
  );
  const refused = await create('more', [
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
  ]);
  assert.equal(refused.status, 403, refused.text);
  assert.match(
    messageOf(refused.body),
    /^roles.rbac.authorization.orch.io "more" is forbidden: user "alice" .* is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["get"\]\}$/
  );
  assert.equal((await suite.request(0, 'GET', `${rbac}/namespaces/${ns}/roles/more`)).status, 404);
});

function post(
  port: number,
  path: string,
  body: unknown
): Promise<{ status: number; body: Record<string, unknown> }> {
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
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { text },
          })
        );
      }
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

test('--disable-admission-plugins=NamespaceLifecycle: a create in a missing namespace is stored', async () => {
  const options = gatewayOptions([
    '--secure-port=0',
    ...suiteGatewayArgs(suite),
    '--authorization-mode=AlwaysAllow',
    '--disable-admission-plugins=NamespaceLifecycle',
  ]);
  assert.deepEqual(options.admissionPlugins, [
    'RBACEscalationPrevention',
    'LimitRanger',
    'ServiceAccount',
    'TaintNodesByCondition',
    'PodSecurity',
    'Priority',
    'DefaultTolerationSeconds',
    'DefaultStorageClass',
    'StorageObjectInUseProtection',
    'PersistentVolumeClaimResize',
    'RuntimeClass',
    'CertificateApproval',
    'CertificateSigning',
    'CertificateSubjectRestriction',
    'DefaultIngressClass',
    'MutatingAdmissionWebhook',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionWebhook',
    'ResourceQuota',
  ]);
  const server = await startInBackground(
    new GatewayServer(await newGatewayConfig(options, createLogger('test-gateway')))
  );
  servers.push(server);
  const r = await post(server.port, '/api/v1/namespaces/unchecked/configmaps', cm('x'));
  // Nothing below admission checks the namespace (as upstream without the plugin).
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const stored = await suite.request(0, 'GET', '/api/v1/namespaces/unchecked/configmaps/x');
  assert.equal(stored.status, 200);
  // The suite's gateway, with the plugin on, still refuses.
  const refused = await suite.request(
    0,
    'POST',
    '/api/v1/namespaces/unchecked/configmaps',
    cm('y')
  );
  assert.equal(refused.status, 404);
});

/** A gateway of the suite with admission flags of its own. */
async function gatewayWith(...flags: string[]): Promise<Started> {
  const options = gatewayOptions([
    '--secure-port=0',
    ...suiteGatewayArgs(suite),
    '--authorization-mode=AlwaysAllow',
    ...flags,
  ]);
  const server = await startInBackground(
    new GatewayServer(await newGatewayConfig(options, createLogger('test-gateway')))
  );
  servers.push(server);
  return server;
}

test('NamespaceAutoProvision: a create in a missing namespace creates the namespace first', async () => {
  const server = await gatewayWith('--enable-admission-plugins=NamespaceAutoProvision');
  const r = await post(server.port, '/api/v1/namespaces/provisioned/configmaps', cm('x'));
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const ns = await suite.request(0, 'GET', '/api/v1/namespaces/provisioned');
  assert.equal(ns.status, 200);
  // The namespace exists now: a second create goes through as any other.
  const again = await post(server.port, '/api/v1/namespaces/provisioned/configmaps', cm('y'));
  assert.equal(again.status, 201, JSON.stringify(again.body));
});

test('NamespaceAutoProvision: a dry run creates no namespace (NamespaceLifecycle then refuses)', async () => {
  const server = await gatewayWith('--enable-admission-plugins=NamespaceAutoProvision');
  const r = await post(
    server.port,
    '/api/v1/namespaces/dry-provisioned/configmaps?dryRun=All',
    cm('x')
  );
  assert.equal(r.status, 404, JSON.stringify(r.body));
  assert.equal(messageOf(r.body), 'namespaces "dry-provisioned" not found');
  const ns = await suite.request(0, 'GET', '/api/v1/namespaces/dry-provisioned');
  assert.equal(ns.status, 404);
});

test('NamespaceExists: content in a missing namespace is refused without NamespaceLifecycle', async () => {
  const server = await gatewayWith(
    '--enable-admission-plugins=NamespaceExists',
    '--disable-admission-plugins=NamespaceLifecycle'
  );
  const r = await post(server.port, '/api/v1/namespaces/absent/configmaps', cm('x'));
  assert.equal(r.status, 404, JSON.stringify(r.body));
  assert.equal(messageOf(r.body), 'namespaces "absent" not found');
  assert.equal(reasonOf(r.body), 'NotFound');
  const fine = await post(server.port, '/api/v1/namespaces/default/configmaps', cm('exists-check'));
  assert.equal(fine.status, 201, JSON.stringify(fine.body));
});

test('AlwaysAdmit and AlwaysDeny: a gateway enabling them warns at start that they are deprecated', async () => {
  const warnings: string[] = [];
  const recording = (base: Logger): Logger => ({
    ...base,
    warn: (msg, fields) => {
      warnings.push(msg);
      base.warn(msg, fields);
    },
    child: (fields) => recording(base.child(fields)),
  });
  const options = gatewayOptions([
    '--secure-port=0',
    ...suiteGatewayArgs(suite),
    '--authorization-mode=AlwaysAllow',
    '--enable-admission-plugins=AlwaysAdmit,AlwaysDeny',
  ]);
  const log = recording(createLogger('test-gateway', 'error'));
  const server = await startInBackground(new GatewayServer(await newGatewayConfig(options, log)));
  servers.push(server);
  assert.ok(
    warnings.includes(
      'AlwaysAdmit admission controller is deprecated. Please use a real admission controller instead.'
    ),
    JSON.stringify(warnings)
  );
  assert.ok(
    warnings.includes(
      'AlwaysDeny admission controller is deprecated. Please use a real admission controller instead.'
    ),
    JSON.stringify(warnings)
  );
});
