// kubectl authenticated by a client credential plugin: a small script prints an ExecCredential
// with a bearer token from the gateway's token file; then the TokenRequest and TokenReview
// operations through `kubectl create --raw`, and a service-account token used with --token.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grantClusterRole, sharedSuite, startGateway, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-exec-'));
const auditLog = join(dir, 'audit.log');
const execInfo = join(dir, 'exec-info.json');
const ns = 'exec-credential';

const kubectl = (kubeconfig: string, args: string[]) =>
  runKubectl(kubeconfig, join(dir, 'cache'), args);

/**
 * A kubeconfig whose user runs `./credential-plugin.sh` (relative to the kubeconfig) with the
 * token in its environment. kubectl speaks the upstream group client.authentication.k8s.io.
 */
function execKubeconfig(name: string, token: string): string {
  const file = join(dir, `${name}.kubeconfig`);
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters:
- name: orch
  cluster:
    server: ${suite.gateways[0]}
    certificate-authority: ${suite.pki.caFile}
users:
- name: ${name}
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./credential-plugin.sh
      env:
      - name: PLUGIN_TOKEN
        value: ${token}
      provideClusterInfo: true
      interactiveMode: Never
contexts:
- name: ${name}
  context:
    cluster: orch
    user: ${name}
current-context: ${name}
`
  );
  return file;
}

before(async () => {
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, 'plugin-token-0123456789,dave,uid-dave,"developers,system:viewers"\n');
  const plugin = join(dir, 'credential-plugin.sh');
  writeFileSync(
    plugin,
    `#!/bin/sh
# A client credential plugin: records what kubectl told it, prints an ExecCredential.
printf '%s' "$KUBERNETES_EXEC_INFO" > '${execInfo}'
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}\\n' "$PLUGIN_TOKEN"
`
  );
  chmodSync(plugin, 0o755);
  // A gateway of its own (token file, audit log) on the shared suite's backends.
  suite = await startGateway(await sharedSuite(), {
    args: [`--token-auth-file=${tokens}`, `--audit-log-path=${auditLog}`],
  });
  // These tests are about who, not what: dave's group, and the service accounts of this file's
  // own namespace (the suite is shared: nobody else's permissions change).
  await grantClusterRole(suite, 'view', 'system:viewers');
  await grantClusterRole(suite, 'view', `system:serviceaccounts:${ns}`);
  assert.equal(
    (await suite.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status,
    201
  );
});

after(async () => {
  await suite?.stop();
});

test('kubectl with an exec credential plugin reaches the API as the token file user', async () => {
  const kc = execKubeconfig('dave', 'plugin-token-0123456789');
  const r = await kubectl(kc, ['get', 'namespace', 'default', '-o', 'name']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'namespace/default');
  const info = JSON.parse(readFileSync(execInfo, 'utf8')) as {
    kind: string;
    spec: { cluster: { server: string }; interactive: boolean };
  };
  assert.equal(info.kind, 'ExecCredential');
  assert.equal(info.spec.cluster.server, suite.gateways[0]);
  interface AuditEvent {
    user: { username?: string; groups?: string[] };
    requestURI: string;
    userAgent: string;
  }
  // The audit log is written after the answer goes out: wait for the line, then read it.
  const ours = (): AuditEvent | undefined =>
    readFileSync(auditLog, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditEvent)
      .find(
        (e) => e.requestURI === '/api/v1/namespaces/default' && e.userAgent.startsWith('kubectl')
      );
  await waitFor('the audit event of the request', async () => ours() !== undefined, {
    timeoutMs: 10_000,
  });
  const mine = ours();
  assert.deepEqual(mine?.user, {
    username: 'dave',
    uid: 'uid-dave',
    groups: ['developers', 'system:viewers', 'system:authenticated'],
  });
});

test('kubectl with a plugin printing an unknown token is refused (401)', async () => {
  const kc = execKubeconfig('mallory', 'not-a-known-token');
  const r = await kubectl(kc, ['get', 'namespace', 'default']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /Unauthorized|must be logged in/);
});

test('kubectl create --raw: a service-account token from the token subresource, reviewed, then used with --token', async () => {
  const admin = suite.kubeconfigs[0] ?? '';
  // (kubectl's typed `create serviceaccount` sends protobuf, which the gateway does not read yet)
  const saFile = join(dir, 'sa.yaml');
  writeFileSync(
    saFile,
    `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: builder\n  namespace: ${ns}\n`
  );
  const created = await kubectl(admin, ['create', '-f', saFile]);
  assert.equal(created.code, 0, created.stderr);
  const req = join(dir, 'token-request.json');
  writeFileSync(
    req,
    JSON.stringify({
      apiVersion: 'authentication.orch.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 900 },
    })
  );
  const minted = await kubectl(admin, [
    'create',
    '--raw',
    `/api/v1/namespaces/${ns}/serviceaccounts/builder/token`,
    '-f',
    req,
  ]);
  assert.equal(minted.code, 0, minted.stderr);
  const token = (JSON.parse(minted.stdout) as { status: { token: string } }).status.token;

  const reviewFile = join(dir, 'review.json');
  writeFileSync(
    reviewFile,
    JSON.stringify({
      apiVersion: 'authentication.orch.io/v1',
      kind: 'TokenReview',
      spec: { token },
    })
  );
  const reviewed = await kubectl(admin, [
    'create',
    '--raw',
    '/apis/authentication.orch.io/v1/tokenreviews',
    '-f',
    reviewFile,
  ]);
  assert.equal(reviewed.code, 0, reviewed.stderr);
  const status = (
    JSON.parse(reviewed.stdout) as {
      status: { authenticated: boolean; user: { username: string; groups: string[] } };
    }
  ).status;
  assert.equal(status.authenticated, true);
  assert.equal(status.user.username, `system:serviceaccount:${ns}:builder`);

  const tokenConfig = join(dir, 'token.kubeconfig');
  writeFileSync(
    tokenConfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: orch\n  cluster:\n    server: ${suite.gateways[0]}\n    certificate-authority: ${suite.pki.caFile}\nusers:\n- name: sa\n  user: {}\ncontexts:\n- name: sa\n  context:\n    cluster: orch\n    user: sa\ncurrent-context: sa\n`
  );
  const asSa = await kubectl(tokenConfig, [
    `--token=${token}`,
    'get',
    'serviceaccount',
    'builder',
    '-n',
    ns,
    '-o',
    'name',
  ]);
  assert.equal(asSa.code, 0, asSa.stderr);
  assert.equal(asSa.stdout.trim(), 'serviceaccount/builder');
  assert.equal((await kubectl(admin, ['-n', ns, 'delete', 'serviceaccount', 'builder'])).code, 0);
  const revoked = await kubectl(tokenConfig, [
    `--token=${token}`,
    'get',
    'serviceaccount',
    'builder',
    '-n',
    ns,
  ]);
  assert.notEqual(revoked.code, 0, 'the token of a deleted account is refused');
  assert.match(revoked.stderr, /Unauthorized|must be logged in/);
});
