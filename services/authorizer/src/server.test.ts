// The authorizer service over real gRPC (mutual TLS), in a real suite: RBAC objects written
// through the gateway reach its informers, the bootstrap policy is written through the public
// API as the authorizer's own user (audited, validated and filled by the gateway's Store like
// any create), aggregation follows new labelled roles.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';
import { isNotFound, toStatusError } from '@orch/apimachinery/errors';
import { AuthorizerClient, StorageClient } from '@orch/apimachinery/grpc';
import type { Attributes } from '@orch/apimachinery/auth';
import {
  HealthClient,
  bootstrapPolicyHealthService,
  clientCredentials,
} from '@orch/component-base/grpc-server';
import { createLogger } from '@orch/component-base/logs';
import { writeKubeconfig } from '@orch/component-base/pki';
import { freePort, startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { startInBackground } from '@orch/component-base/run';
import { reconcilePolicy } from './bootstrap/reconcile-policy.js';
import { newAuthorizerConfig } from './config.js';
import { authorizerOptions } from './options.js';
import { AuthorizerServer } from './server.js';

let suite: Suite;
let client: AuthorizerClient;
let storage: StorageClient;
/** The public API as the authorizer (its client certificate). */
let api: RestClient;
const authorizerUser = 'system:orch:authorizer';

interface AuditEvent {
  verb: string;
  user: { username: string; groups?: string[] };
  objectRef?: { resource: string; name?: string };
  responseStatus: { code: number };
}
const auditLog = (): string => join(suite.pki.dir, 'audit.log');
async function audited(): Promise<AuditEvent[]> {
  const text = await readFile(auditLog(), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEvent);
}
/** Creates of cluster roles that the authorizer's user made and the gateway answered 201. */
const authorizerCreates = async (): Promise<AuditEvent[]> =>
  (await audited()).filter(
    (e) =>
      e.user.username === authorizerUser &&
      e.verb === 'create' &&
      e.objectRef?.resource === 'clusterroles' &&
      e.responseStatus.code === 201
  );

const rbac = '/apis/rbac.authorization.orch.io/v1';
type Request = Partial<Omit<Attributes, 'user'>>;
const attrs = (name: string, groups: string[], a: Request): Attributes => ({
  user: { name, groups, uid: '', extra: {} },
  verb: 'get',
  isResourceRequest: true,
  path: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: '',
  subresource: '',
  namespace: '',
  name: '',
  ...a,
});

before(async () => {
  suite = await startSuite({
    gatewayArgs: (pki) => [`--audit-log-path=${join(pki.dir, 'audit.log')}`],
  });
  // The same identity as the suite's authorizer: its client certificate, at the first gateway.
  const asAuthorizer = join(suite.pki.dir, 'as-authorizer.kubeconfig');
  const ac = suite.pki.file('authorizer-client');
  const server = suite.gateways[0]!;
  await writeKubeconfig(asAuthorizer, { server, caFile: suite.pki.caFile, ...ac });
  api = new RestClient(loadKubeconfig(asAuthorizer));
  const g = suite.pki.file('gateway');
  const creds = () =>
    clientCredentials({ caFile: suite.pki.caFile, certFile: g.certFile, keyFile: g.keyFile });
  client = new AuthorizerClient({
    address: `127.0.0.1:${suite.authorizerPort}`,
    credentials: creds(),
  });
  storage = new StorageClient({ address: `127.0.0.1:${suite.storagePort}`, credentials: creds() });
});

after(async () => {
  client.close();
  storage.close();
  api.close();
  await suite.stop();
});

describe('authorizer service', () => {
  it('allows system:masters everything, even without the cluster-admin binding', async () => {
    const r = await client.authorize(
      attrs('orch-admin', ['system:masters'], { verb: 'delete', resource: 'nodes', name: 'n1' })
    );
    assert.equal(r.decision, 'allow');
    assert.equal(
      (
        await suite.request(
          0,
          'DELETE',
          '/apis/rbac.authorization.orch.io/v1/clusterrolebindings/cluster-admin'
        )
      ).status,
      200
    );
    try {
      assert.equal((await suite.request(0, 'GET', '/api/v1/namespaces')).status, 200);
    } finally {
      await reconcilePolicy(api, createLogger('test', 'error'));
    }
    assert.equal(
      (
        await suite.request(
          0,
          'GET',
          '/apis/rbac.authorization.orch.io/v1/clusterrolebindings/cluster-admin'
        )
      ).status,
      200
    );
  });

  it('lets everyone read health and version, and nothing more to the anonymous user', async () => {
    const anon = (path: string) =>
      client.authorize(
        attrs('system:anonymous', ['system:unauthenticated'], { isResourceRequest: false, path })
      );
    assert.equal((await anon('/healthz')).decision, 'allow');
    assert.equal((await anon('/version')).decision, 'allow');
    assert.equal((await anon('/api')).decision, 'no-opinion');
    assert.equal(
      (
        await client.authorize(
          attrs('bob', ['system:authenticated'], {
            isResourceRequest: false,
            path: '/apis/apps/v1',
          })
        )
      ).decision,
      'allow'
    );
  });

  it('answers a request without a verb with BadRequest', async () => {
    await assert.rejects(
      client.authorize(attrs('bob', [], { verb: '', resource: 'pods' })),
      (err: unknown) => toStatusError(err).code === 400
    );
  });

  it('stores the bootstrap policy as normal objects and reconciles removed rules back', async () => {
    const res = await suite.request(0, 'GET', `${rbac}/clusterroles/system:basic-user`);
    assert.equal(res.status, 200, res.text);
    const role = res.body as {
      metadata: { uid: string; creationTimestamp: string; resourceVersion: string };
      rules: unknown[];
    };
    assert.ok(
      role.metadata.uid && role.metadata.creationTimestamp && role.metadata.resourceVersion
    );
    const put = await suite.request(0, 'PUT', `${rbac}/clusterroles/system:basic-user`, {
      ...role,
      rules: [],
    });
    assert.equal(put.status, 200, put.text);
    await reconcilePolicy(api, createLogger('test', 'error'));
    const again = (await suite.request(0, 'GET', `${rbac}/clusterroles/system:basic-user`))
      .body as typeof role;
    assert.equal(again.metadata.uid, role.metadata.uid);
    assert.deepEqual(again.rules, role.rules);
  });

  it('follows roles and bindings written through the gateway, within a namespace only', async () => {
    assert.equal(
      (await suite.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: 'authz-it' } }))
        .status,
      201
    );
    const roleRes = await suite.request(0, 'POST', `${rbac}/namespaces/authz-it/roles`, {
      metadata: { name: 'cm-reader' },
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }],
    });
    assert.equal(roleRes.status, 201, roleRes.text);
    const b = await suite.request(0, 'POST', `${rbac}/namespaces/authz-it/rolebindings`, {
      metadata: { name: 'carol-reads' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'carol' }],
    });
    assert.equal(b.status, 201, b.text);
    const ask = (namespace: string, verb = 'list') =>
      client.authorize(
        attrs('carol', ['system:authenticated'], { verb, resource: 'configmaps', namespace })
      );
    await waitFor(
      'the binding reaches the authorizer',
      async () => (await ask('authz-it')).decision === 'allow',
      { timeoutMs: 5000 }
    );
    assert.equal((await ask('default')).decision, 'no-opinion');
    assert.equal((await ask('')).decision, 'no-opinion');
    assert.equal((await ask('authz-it', 'delete')).decision, 'no-opinion');
    const rules = await client.rulesReview(
      { name: 'carol', groups: ['system:authenticated'], uid: '', extra: {} },
      'authz-it'
    );
    assert.ok(
      rules.resourceRules.some(
        (r) => r.resources.includes('configmaps') && r.verbs.includes('list')
      )
    );
    assert.ok(rules.resourceRules.some((r) => r.resources.includes('selfsubjectaccessreviews')));
    assert.equal(rules.incomplete, false);

    assert.equal(
      (await suite.request(0, 'DELETE', `${rbac}/namespaces/authz-it/rolebindings/carol-reads`))
        .status,
      200
    );
    await waitFor(
      'the deletion reaches the authorizer',
      async () => (await ask('authz-it')).decision === 'no-opinion',
      { timeoutMs: 5000 }
    );
  });

  it('aggregates a newly labelled cluster role into view', async () => {
    const created = await suite.request(0, 'POST', `${rbac}/clusterroles`, {
      metadata: {
        name: 'widgets-view',
        labels: { 'rbac.authorization.orch.io/aggregate-to-view': 'true' },
      },
      rules: [{ verbs: ['get'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }],
    });
    assert.equal(created.status, 201, created.text);
    const hasWidgets = async (name: string) => {
      const r = (await suite.request(0, 'GET', `${rbac}/clusterroles/${name}`)).body as {
        rules?: { resources?: string[] }[];
      };
      return (r.rules ?? []).some((x) => (x.resources ?? []).includes('widgets'));
    };
    await waitFor('view aggregates widgets', () => hasWidgets('view'), { timeoutMs: 5000 });
    await waitFor(
      'edit and admin follow through view',
      async () => (await hasWidgets('edit')) && (await hasWidgets('admin')),
      { timeoutMs: 5000 }
    );
    assert.equal(
      (await suite.request(0, 'DELETE', `${rbac}/clusterroles/widgets-view`)).status,
      200
    );
    await waitFor('view drops widgets', async () => !(await hasWidgets('view')), {
      timeoutMs: 5000,
    });
    try {
      await storage.get(
        '/registry/rbac.authorization.orch.io/clusterroles/widgets-view',
        'MOST_RECENT'
      );
      assert.fail('still stored');
    } catch (err) {
      assert.ok(isNotFound(err));
    }
  });

  it('writes the bootstrap policy through the gateway as its own user, before the gateway is ready', async () => {
    // The suite waited for /readyz: the bootstrap check passed, and the policy is there.
    assert.equal(
      (await suite.request(0, 'GET', '/readyz/poststarthook/rbac/bootstrap-roles')).status,
      200
    );
    const creates = await authorizerCreates();
    assert.ok(creates.length > 0, 'the bootstrap roles were created through the gateway');
    const self = await audited();
    const e = self.find((x) => x.user.username === authorizerUser);
    assert.deepEqual(e?.user.groups?.includes('system:masters'), true);
    // Created by the Store: the system fields it fills, as for any object created through the API.
    const role = (await suite.request(0, 'GET', `${rbac}/clusterroles/cluster-admin`)).body as {
      metadata: {
        uid?: string;
        creationTimestamp?: string;
        resourceVersion?: string;
        generation?: number;
      };
    };
    assert.ok(
      role.metadata.uid && role.metadata.creationTimestamp && role.metadata.resourceVersion
    );
  });

  it('recreates a deleted bootstrap role through the API', async () => {
    const path = `${rbac}/clusterroles/system:public-info-viewer`;
    const before = (await suite.request(0, 'GET', path)).body as {
      metadata: { uid: string };
      rules: unknown[];
    };
    assert.equal((await suite.request(0, 'DELETE', path)).status, 200);
    assert.equal((await suite.request(0, 'GET', path)).status, 404);
    const createsBefore = (await authorizerCreates()).length;
    await reconcilePolicy(api, createLogger('test', 'error'));
    const after = await suite.request(0, 'GET', path);
    assert.equal(after.status, 200, after.text);
    const role = after.body as typeof before;
    assert.notEqual(role.metadata.uid, before.metadata.uid, 'a new object');
    assert.deepEqual(role.rules, before.rules);
    await waitFor(
      'the audit line is written',
      async () => (await authorizerCreates()).length === createsBefore + 1,
      { timeoutMs: 5000 }
    );
  });

  it('answers decisions before its bootstrap policy is in, and reports the policy not ready', async () => {
    // A second authorizer whose gateway does not answer: its bootstrap retries in the background.
    const dead = `https://127.0.0.1:${await freePort()}`;
    const kubeconfig = join(suite.pki.dir, 'dead-gateway.kubeconfig');
    const a = suite.pki.file('authorizer');
    const ac = suite.pki.file('authorizer-client');
    await writeKubeconfig(kubeconfig, {
      server: dead,
      caFile: suite.pki.caFile,
      certFile: ac.certFile,
      keyFile: ac.keyFile,
    });
    const options = authorizerOptions([
      `--storage-servers=127.0.0.1:${suite.storagePort}`,
      `--nats-url=${suite.nats.url}`,
      '--secure-port=0',
      `--tls-cert-file=${a.certFile}`,
      `--tls-private-key-file=${a.keyFile}`,
      `--client-ca-file=${suite.pki.caFile}`,
      `--kubeconfig=${kubeconfig}`,
    ]);
    const log = createLogger('test-authorizer', 'error');
    const running = await startInBackground(
      new AuthorizerServer(await newAuthorizerConfig(options, log))
    );
    const g = suite.pki.file('gateway');
    const creds = () =>
      clientCredentials({ caFile: suite.pki.caFile, certFile: g.certFile, keyFile: g.keyFile });
    const second = new AuthorizerClient({
      address: `127.0.0.1:${running.port}`,
      credentials: creds(),
    });
    const health = new HealthClient(`127.0.0.1:${running.port}`, creds());
    try {
      await waitFor(
        'decisions answered',
        async () => {
          try {
            return (
              (
                await second.authorize(
                  attrs('orch-admin', ['system:masters'], { verb: 'list', resource: 'pods' })
                )
              ).decision === 'allow'
            );
          } catch {
            return false;
          }
        },
        { timeoutMs: 10_000 }
      );
      assert.equal(await health.check(''), 'SERVING');
      assert.equal(await health.check(bootstrapPolicyHealthService), 'NOT_SERVING');
      // The suite's own authorizer has its policy in.
      const own = new HealthClient(`127.0.0.1:${suite.authorizerPort}`, creds());
      try {
        assert.equal(await own.check(bootstrapPolicyHealthService), 'SERVING');
      } finally {
        own.close();
      }
    } finally {
      second.close();
      health.close();
      await running.stop();
    }
  });
});
