// kubectl's typed commands, which build requests with upstream's compiled-in group names
// (rbac.authorization.k8s.io, authorization.k8s.io, authentication.k8s.io, certificates.k8s.io,
// networking.k8s.io, scheduling.k8s.io), against a suite whose first gateway accepts them as
// aliases of the orch.io groups (--upstream-group-aliases, the default) and whose second turns
// them off: create role/rolebinding/clusterrole/clusterrolebinding then a token user allowed by
// the binding, auth can-i both ways, auth whoami, create token, certificate approve/deny, create
// ingress/priorityclass/poddisruptionbudget; answers in the asked group (objects, lists, watch
// events); discovery lists only the spec's groups; a deprecated version's warning and a removed
// version's 404 under an alias; the flag off brings back "not found".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FrameReader,
  decodeEnvelope,
  decodeWatchFrame,
  encodeEnvelope,
} from '@orch/apimachinery/protobuf';
import { x509 } from '@orch/component-base/pki';
import { startSuite, userKubeconfig, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
let dave = '';
const dir = mkdtempSync(join(tmpdir(), 'orch-typed-commands-'));
const ns = 'team';

const kubectl = (kubeconfig: string, args: string[], input?: string) =>
  runKubectl(kubeconfig, join(dir, 'cache'), args, input);
const admin = (args: string[], input?: string) => kubectl(suite.kubeconfigs[0]!, args, input);
/** The second gateway, started with --upstream-group-aliases=false. */
const adminNoAliases = (args: string[]) => kubectl(suite.kubeconfigs[1]!, args);

/** A kubeconfig holding only the server and its CA: the caller passes --token. */
function tokenKubeconfig(): string {
  const file = join(dir, 'token.kubeconfig');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: orch',
      '  cluster:',
      `    server: ${suite.gateways[0]}`,
      `    certificate-authority: ${suite.pki.caFile}`,
      'contexts:',
      '- name: orch',
      '  context: {cluster: orch, user: bearer}',
      'current-context: orch',
      'users:',
      '- name: bearer',
      '  user: {}',
      '',
    ].join('\n')
  );
  return file;
}

async function ok(p: Promise<{ code: number; stdout: string; stderr: string }>): Promise<string> {
  const r = await p;
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

before(async () => {
  suite = await startSuite({
    certificates: true,
    gateways: [{}, { args: ['--upstream-group-aliases=false'] }],
    gatewayArgs: [
      '--runtime-config=authentication.orch.io/v1beta1=true,admissionregistration.orch.io/v1beta1=true',
    ],
  });
  dave = (await userKubeconfig(suite.pki, suite.gateways[0]!, 'dave')).kubeconfig;
  await ok(admin(['create', 'namespace', ns]));
  await ok(admin(['create', 'configmap', 'settings', '-n', ns, '--from-literal=color=blue']));
});

after(async () => {
  await suite?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('create role, serviceaccount, rolebinding and token: the token user may do what the binding allows, no more', async () => {
  await ok(
    admin(['create', 'role', 'cm-reader', '-n', ns, '--verb=get,list', '--resource=configmaps'])
  );
  await ok(admin(['create', 'serviceaccount', 'bot', '-n', ns]));
  await ok(
    admin([
      'create',
      'rolebinding',
      'bot-reads',
      '-n',
      ns,
      '--role=cm-reader',
      `--serviceaccount=${ns}:bot`,
    ])
  );
  // Stored under the spec's names, whatever names kubectl sent.
  const rb = JSON.parse(
    await ok(admin(['get', 'rolebinding', 'bot-reads', '-n', ns, '-o', 'json']))
  );
  assert.equal(rb.apiVersion, 'rbac.authorization.orch.io/v1');
  assert.equal(rb.roleRef.apiGroup, 'rbac.authorization.orch.io');

  const token = (await ok(admin(['create', 'token', 'bot', '-n', ns, '--duration=10m']))).trim();
  assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  const kc = tokenKubeconfig();
  const bot = (args: string[]) => kubectl(kc, [`--token=${token}`, ...args]);
  await waitFor(
    'the binding reaches the authorizer',
    async () => (await bot(['get', 'configmaps', '-n', ns, '-o', 'name'])).code === 0,
    { timeoutMs: 10_000, intervalMs: 200 }
  );
  assert.equal(
    await ok(bot(['get', 'configmap', 'settings', '-n', ns, '-o', 'jsonpath={.data.color}'])),
    'blue'
  );
  const elsewhere = await bot(['get', 'configmaps', '-n', 'default']);
  assert.notEqual(elsewhere.code, 0);
  assert.match(elsewhere.stderr, /Forbidden/);

  // auth can-i both ways (SelfSubjectAccessReview in authorization.k8s.io/v1).
  const yes = await bot(['auth', 'can-i', 'list', 'configmaps', '-n', ns]);
  assert.equal(yes.code, 0, yes.stderr);
  assert.equal(yes.stdout.trim(), 'yes');
  const no = await bot(['auth', 'can-i', 'delete', 'configmaps', '-n', ns]);
  assert.equal(no.code, 1, no.stderr);
  assert.equal(no.stdout.trim(), 'no');
  // A group name in the review: the RBAC rule names rbac.authorization.orch.io, asked as itself.
  const roles = await bot([
    'auth',
    'can-i',
    'create',
    'roles.rbac.authorization.orch.io',
    '-n',
    ns,
  ]);
  assert.equal(roles.stdout.trim(), 'no');

  // auth can-i --list (SelfSubjectRulesReview): the binding's rule among the caller's.
  const list = await ok(bot(['auth', 'can-i', '--list', '-n', ns]));
  assert.match(list, /^configmaps\s+\[\]\s+\[\]\s+\[get list\]$/m);

  // auth whoami (SelfSubjectReview in authentication.k8s.io/v1), answered in the group asked.
  const who = JSON.parse(await ok(bot(['auth', 'whoami', '-o', 'json'])));
  assert.equal(who.apiVersion, 'authentication.k8s.io/v1');
  assert.equal(who.status.userInfo.username, `system:serviceaccount:${ns}:bot`);
});

test('create clusterrole and clusterrolebinding: a certificate user allowed by them', async () => {
  await ok(
    admin(['create', 'clusterrole', 'pc-reader', '--verb=get,list', '--resource=priorityclasses'])
  );
  await ok(
    admin(['create', 'clusterrolebinding', 'dave-pc', '--clusterrole=pc-reader', '--user=dave'])
  );
  const crb = JSON.parse(await ok(admin(['get', 'clusterrolebinding', 'dave-pc', '-o', 'json'])));
  assert.deepEqual(crb.subjects, [
    { apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'dave' },
  ]);
  await waitFor(
    'dave can list priorityclasses',
    async () => (await kubectl(dave, ['get', 'priorityclasses', '-o', 'name'])).code === 0,
    { timeoutMs: 10_000, intervalMs: 200 }
  );
  const can = await kubectl(dave, ['auth', 'can-i', 'list', 'priorityclasses']);
  assert.equal(can.stdout.trim(), 'yes', can.stderr);
  const cannot = await kubectl(dave, ['auth', 'can-i', 'list', 'configmaps', '-n', ns]);
  assert.equal(cannot.stdout.trim(), 'no', cannot.stderr);
});

async function csr(name: string): Promise<void> {
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const req = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [{ CN: [name] }],
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
  });
  const manifest = {
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: Buffer.from(req.toString('pem')).toString('base64'),
      signerName: 'orch.io/apiserver-client',
      usages: ['client auth'],
    },
  };
  // The gateway's channel to the certificates service may still be connecting.
  await waitFor(
    'the CSR is created',
    async () => (await admin(['create', '-f', '-'], JSON.stringify(manifest))).code === 0,
    {
      timeoutMs: 30_000,
      intervalMs: 250,
    }
  );
}

test('certificate approve and deny (certificates.k8s.io/v1 approval subresource)', async () => {
  await csr('alias-approved');
  await csr('alias-denied');
  await ok(admin(['certificate', 'approve', 'alias-approved']));
  await ok(admin(['certificate', 'deny', 'alias-denied']));
  const condition = async (name: string) =>
    (await ok(admin(['get', 'csr', name, '-o', 'jsonpath={.status.conditions[0].type}']))).trim();
  assert.equal(await condition('alias-approved'), 'Approved');
  assert.equal(await condition('alias-denied'), 'Denied');
});

test('create ingress, priorityclass and poddisruptionbudget', async () => {
  await ok(admin(['create', 'ingress', 'web', '-n', ns, '--rule=example.com/api*=api:8080']));
  const ing = JSON.parse(await ok(admin(['get', 'ingress', 'web', '-n', ns, '-o', 'json'])));
  assert.equal(ing.apiVersion, 'networking.orch.io/v1');
  assert.deepEqual(ing.spec.rules[0].http.paths[0], {
    path: '/api',
    pathType: 'Prefix',
    backend: { service: { name: 'api', port: { number: 8080 } } },
  });
  await ok(
    admin(['create', 'priorityclass', 'batch-high', '--value=1000', '--description=for batch'])
  );
  assert.equal(
    await ok(admin(['get', 'priorityclass', 'batch-high', '-o', 'jsonpath={.value}'])),
    '1000'
  );
  await ok(
    admin([
      'create',
      'poddisruptionbudget',
      'web',
      '-n',
      ns,
      '--selector=app=web',
      '--min-available=1',
    ])
  );
  assert.equal(
    await ok(admin(['get', 'pdb', 'web', '-n', ns, '-o', 'jsonpath={.spec.minAvailable}'])),
    '1'
  );
});

test('answers under an alias are in the group asked: get, list, watch; discovery lists only the spec groups', async () => {
  const one = JSON.parse(
    await ok(
      admin([
        'get',
        '--raw',
        `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings/bot-reads`,
      ])
    )
  );
  assert.equal(one.apiVersion, 'rbac.authorization.k8s.io/v1');
  assert.equal(one.roleRef.apiGroup, 'rbac.authorization.k8s.io');
  assert.equal(one.metadata.managedFields[0].apiVersion, 'rbac.authorization.k8s.io/v1');
  const list = JSON.parse(
    await ok(
      admin(['get', '--raw', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`])
    )
  );
  assert.equal(list.apiVersion, 'rbac.authorization.k8s.io/v1');
  assert.equal(list.items[0].roleRef.apiGroup, 'rbac.authorization.k8s.io');
  const watch = await ok(
    admin(['get', '--raw', '/apis/scheduling.k8s.io/v1/priorityclasses?watch=1&timeoutSeconds=1'])
  );
  const events = watch
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(events.some((e) => e.object.metadata.name === 'batch-high'));
  for (const e of events) assert.equal(e.object.apiVersion, 'scheduling.k8s.io/v1');
  const missing = await admin([
    'get',
    '--raw',
    '/apis/rbac.authorization.k8s.io/v1/namespaces/team/roles/nope',
  ]);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /NotFound/);

  const versions = (await ok(admin(['api-versions']))).trim().split('\n');
  assert.ok(versions.includes('rbac.authorization.orch.io/v1'));
  assert.deepEqual(
    versions.filter((v) => v.includes('k8s.io')),
    []
  );
  const group = await admin(['get', '--raw', '/apis/rbac.authorization.k8s.io']);
  assert.notEqual(group.code, 0, 'no discovery document for an alias');
});

test('binary bodies under an alias: a protobuf RoleBinding in upstream names in, and out, and watch frames', async () => {
  const protobuf = 'application/vnd.kubernetes.protobuf';
  const rb = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'binary', namespace: ns },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'carol' }],
  };
  const path = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`;
  const created = await suite.request(0, 'POST', path, encodeEnvelope(rb), {
    'Content-Type': protobuf,
    Accept: protobuf,
  });
  assert.equal(created.status, 201, created.text);
  const answer = decodeEnvelope(created.raw);
  assert.equal(answer['apiVersion'], 'rbac.authorization.k8s.io/v1');
  assert.deepEqual(answer['roleRef'], rb.roleRef);
  assert.deepEqual(answer['subjects'], rb.subjects);
  const stored = await suite.request(
    0,
    'GET',
    `/apis/rbac.authorization.orch.io/v1/namespaces/${ns}/rolebindings/binary`
  );
  assert.equal((stored.body as any).roleRef.apiGroup, 'rbac.authorization.orch.io');

  const watched = await suite.request(
    0,
    'GET',
    `${path}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name=binary`,
    undefined,
    {
      Accept: protobuf,
    }
  );
  assert.equal(watched.status, 200);
  const frames = new FrameReader().push(watched.raw).map((f) => decodeWatchFrame(f));
  assert.equal(frames.length, 1);
  assert.equal(frames[0]!.type, 'ADDED');
  assert.equal(frames[0]!.object['apiVersion'], 'rbac.authorization.k8s.io/v1');
  assert.deepEqual(frames[0]!.object['roleRef'], rb.roleRef);
});

test('ValidatingAdmissionPolicy v1beta1 beside v1: one collection, either version, get --raw warns', async () => {
  const policy = {
    apiVersion: 'admissionregistration.orch.io/v1beta1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'beta.example.com' },
    spec: {
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [''],
            apiVersions: ['v1'],
            operations: ['CREATE'],
            resources: ['configmaps'],
          },
        ],
      },
      validations: [{ expression: "object.metadata.name != 'forbidden'" }],
    },
  };
  const created = await admin(['create', '-f', '-'], JSON.stringify(policy));
  assert.equal(created.code, 0, created.stderr);
  assert.match(
    created.stderr,
    /Warning: admissionregistration\.orch\.io\/v1beta1 ValidatingAdmissionPolicy is deprecated in v1\.31\+, unavailable in v1\.34\+; use admissionregistration\.orch\.io\/v1 ValidatingAdmissionPolicy/
  );
  const v1 = JSON.parse(
    await ok(
      admin([
        'get',
        '--raw',
        '/apis/admissionregistration.orch.io/v1/validatingadmissionpolicies/beta.example.com',
      ])
    )
  );
  assert.equal(v1.apiVersion, 'admissionregistration.orch.io/v1');
  assert.equal(v1.spec.failurePolicy, 'Fail', 'defaulted as v1 defaults it');
  assert.deepEqual(v1.spec.validations, policy.spec.validations);
  const raw = await admin([
    'get',
    '--raw',
    '/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicies',
  ]);
  assert.equal(raw.code, 0, raw.stderr);
  assert.match(
    raw.stderr,
    /Warning: .*v1beta1 ValidatingAdmissionPolicy is deprecated in v1\.31\+, unavailable in v1\.34\+/
  );
  const list = JSON.parse(raw.stdout);
  assert.equal(list.apiVersion, 'admissionregistration.k8s.io/v1beta1');
  assert.ok(list.items.some((p: any) => p.metadata.name === 'beta.example.com'));
  await ok(
    admin([
      'delete',
      'validatingadmissionpolicies.v1.admissionregistration.orch.io',
      'beta.example.com',
    ])
  );
});

test('a deprecated version under its alias warns; a removed one is 404 naming its replacement', async () => {
  const file = join(dir, 'ssr.json');
  writeFileSync(
    file,
    JSON.stringify({ apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' })
  );
  const r = await admin([
    'create',
    '--raw',
    '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews',
    '-f',
    file,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /Warning: .*v1beta1 SelfSubjectReview is deprecated in v1\.30\+, unavailable in v1\.33\+/
  );
  assert.equal(JSON.parse(r.stdout).apiVersion, 'authentication.k8s.io/v1beta1');

  const removed = await admin([
    'get',
    '--raw',
    `/apis/rbac.authorization.k8s.io/v1beta1/namespaces/${ns}/roles`,
  ]);
  assert.notEqual(removed.code, 0);
  // In the group names the client asked in, as every Status under an alias.
  assert.match(
    removed.stderr,
    /NotFound.*Role rbac\.authorization\.k8s\.io\/v1beta1 was removed in v1\.22 .*use rbac\.authorization\.k8s\.io\/v1 /
  );
});

test('--upstream-group-aliases=false: kubectl create role is not found again, the spec groups still served', async () => {
  const r = await adminNoAliases([
    'create',
    'role',
    'off',
    '-n',
    ns,
    '--verb=get',
    '--resource=configmaps',
  ]);
  assert.notEqual(r.code, 0);
  // The 404 of a path nothing serves, as upstream answers a group it does not serve.
  assert.match(r.stderr, /NotFound\): the server could not find the requested resource/);
  await ok(adminNoAliases(['get', 'roles', '-n', ns]));
  const raw = await adminNoAliases([
    'get',
    '--raw',
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
  ]);
  assert.notEqual(raw.code, 0);
});
