// The certificates service through a real suite (etcd, NATS, storage, the authorizer, the
// gateway and this service as processes of their own, mutual TLS): CSRs made by `openssl req`
// and by @peculiar/x509; bad input refused with 422 naming the field and nothing stored;
// CertificateApproval with and without `approve` on `signers` (exact name and `<domain>/*`);
// CertificateSigning; CertificateSubjectRestriction; `kubectl get csr` columns; approve and
// deny through kubectl's --raw on /approval; the service killed: CSR writes fail closed (503),
// other kinds and /readyz unaffected, then recovery.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCertificateAuthority } from '@orch/component-base/pki';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite, SuiteResponse } from '@orch/testing';
import { flipSignatureByte, opensslCsr, x509Csr } from './testing/csr-fixtures.js';

let suite: Suite;
let tmp: string;
const csrs = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const rbac = '/apis/rbac.authorization.orch.io/v1';
const signer = 'example.com/my-signer';
const as = (user: string): Record<string, string> => ({ 'Impersonate-User': user });

type Json = Record<string, any>;
const csr = (name: string, request: string, spec: Json = {}): Json => ({
  apiVersion: 'certificates.orch.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { request, signerName: signer, usages: ['digital signature', 'client auth'], ...spec },
});
const body = (r: SuiteResponse): Json => r.body as Json;
const causes = (r: SuiteResponse): string[] =>
  ((body(r)['details']?.['causes'] ?? []) as Json[]).map((c) => String(c['field']));

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      [`--kubeconfig=${suite.kubeconfigs[0]}`, `--cache-dir=${join(tmp, 'kube-cache')}`, ...args],
      { timeout: 30_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
    );
  });
}

async function create(name: string, request: string, spec: Json = {}, user?: string) {
  return suite.request(0, 'POST', csrs, csr(name, request, spec), user ? as(user) : undefined);
}

/** PUT of the object's /approval or /status with `conditions` (and a certificate), as `user`. */
async function writeSub(
  name: string,
  sub: 'approval' | 'status',
  status: Json,
  user?: string
): Promise<SuiteResponse> {
  const current = body(await suite.request(0, 'GET', `${csrs}/${name}`));
  current['status'] = { ...(current['status'] ?? {}), ...status };
  return suite.request(0, 'PUT', `${csrs}/${name}/${sub}`, current, user ? as(user) : undefined);
}

const approved = (reason = 'ByTest'): Json => ({
  conditions: [{ type: 'Approved', status: 'True', reason, message: 'approved by a test' }],
});

/** A ClusterRole and a ClusterRoleBinding of it to one user. */
async function grant(user: string, role: string, rules: Json[]): Promise<void> {
  const r1 = await suite.request(0, 'POST', `${rbac}/clusterroles`, {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRole',
    metadata: { name: role },
    rules,
  });
  assert.equal(r1.status, 201, r1.text);
  const r2 = await suite.request(0, 'POST', `${rbac}/clusterrolebindings`, {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `${role}-${user}` },
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: user }],
  });
  assert.equal(r2.status, 201, r2.text);
}

/** Waits until the authorizer allows `verb` on `signers` `name` for `user`. */
async function allowed(user: string, verb: string, name: string): Promise<void> {
  await waitFor(
    `${user} may ${verb} ${name}`,
    async () => {
      const review = await suite.request(
        0,
        'POST',
        '/apis/authorization.orch.io/v1/subjectaccessreviews',
        {
          apiVersion: 'authorization.orch.io/v1',
          kind: 'SubjectAccessReview',
          spec: {
            user,
            resourceAttributes: { group: 'certificates.orch.io', resource: 'signers', verb, name },
          },
        }
      );
      return body(review)['status']?.['allowed'] === true;
    },
    { timeoutMs: 10_000 }
  );
}

/** Writes of CSRs and their subresources, for users of the tests. */
const csrWriter = [
  {
    apiGroups: ['certificates.orch.io'],
    resources: [
      'certificatesigningrequests',
      'certificatesigningrequests/approval',
      'certificatesigningrequests/status',
    ],
    verbs: ['get', 'list', 'create', 'update', 'patch'],
  },
];

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'orch-csr-test-'));
  suite = await startSuite({ certificates: true });
  await grant('alice', 'csr-writer-alice', csrWriter);
  await grant('bob', 'csr-writer-bob', csrWriter);
});

after(async () => {
  await suite?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('create', () => {
  it('a request made by openssl req: 201, the requester recorded, status dropped', async () => {
    const made = opensslCsr({ commonName: 'alice', organizations: ['dev'] });
    const r = await suite.request(0, 'POST', csrs, {
      ...csr('openssl-1', made.request, { username: 'mallory', groups: ['system:masters'] }),
      status: approved(),
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(body(r)['spec']['username'], 'orch-admin');
    assert.ok((body(r)['spec']['groups'] as string[]).includes('system:masters'));
    assert.deepEqual(body(r)['status'], {}, 'no pre-approved request: the empty status Go writes');
  });

  it('a request made by @peculiar/x509, by a user: spec.username is theirs', async () => {
    const made = await x509Csr({ commonName: 'alice' });
    const r = await create('x509-1', made.request, {}, 'alice');
    assert.equal(r.status, 201, r.text);
    assert.equal(body(r)['spec']['username'], 'alice');
    assert.ok((body(r)['spec']['groups'] as string[]).includes('system:authenticated'));
  });

  it('the main resource ignores spec and status changes (spec immutable)', async () => {
    const current = body(await suite.request(0, 'GET', `${csrs}/openssl-1`));
    current['spec']['signerName'] = 'example.com/other';
    current['status'] = approved();
    current['metadata']['labels'] = { touched: 'yes' };
    const r = await suite.request(0, 'PUT', `${csrs}/openssl-1`, current);
    assert.equal(r.status, 200, r.text);
    assert.equal(body(r)['spec']['signerName'], signer);
    assert.deepEqual(body(r)['status'], {});
    assert.deepEqual(body(r)['metadata']['labels'], { touched: 'yes' });
  });
});

describe('bad input: 422 naming the field, nothing stored', () => {
  const rows: { name: string; spec: () => Promise<Json> | Json; field: string; text: RegExp }[] = [
    {
      name: 'malformed PEM',
      spec: () => ({ request: Buffer.from('-----BEGIN NOTHING-----\n').toString('base64') }),
      field: 'spec.request',
      text: /PEM block type must be CERTIFICATE REQUEST/,
    },
    {
      name: 'a request whose signature does not verify (openssl, a byte flipped)',
      spec: () => ({ request: flipSignatureByte(opensslCsr({ commonName: 'x' })).request }),
      field: 'spec.request',
      text: /signature/,
    },
    {
      name: 'a request whose signature does not verify (@peculiar/x509, a byte flipped)',
      spec: async () => ({
        request: flipSignatureByte(await x509Csr({ commonName: 'x' })).request,
      }),
      field: 'spec.request',
      text: /signature/,
    },
    {
      name: 'unknown usage',
      spec: () => ({ usages: ['client auth', 'time travel'] }),
      field: 'spec.usages[1]',
      text: /Unsupported value: "time travel"/,
    },
    {
      name: 'orch.io/legacy-unknown refused',
      spec: () => ({ signerName: 'orch.io/legacy-unknown' }),
      field: 'spec.signerName',
      text: /legacy signerName is not allowed/,
    },
    {
      name: 'expirationSeconds under 600',
      spec: () => ({ expirationSeconds: 300 }),
      field: 'spec.expirationSeconds',
      text: /less than 600 seconds/,
    },
  ];
  for (const [i, row] of rows.entries()) {
    it(row.name, async () => {
      const name = `bad-${i}`;
      const spec = await row.spec();
      const r = await create(
        name,
        spec['request'] ?? opensslCsr({ commonName: 'x' }).request,
        spec
      );
      assert.equal(r.status, 422, r.text);
      assert.equal(body(r)['reason'], 'Invalid');
      assert.deepEqual(causes(r), [row.field]);
      assert.match(String(body(r)['message']), row.text);
      assert.equal((await suite.request(0, 'GET', `${csrs}/${name}`)).status, 404);
    });
  }

  it('a second Approved condition through /approval', async () => {
    assert.equal((await create('twice', opensslCsr({ commonName: 'x' }).request)).status, 201);
    const current = body(await suite.request(0, 'GET', `${csrs}/twice`));
    const c = approved()['conditions'][0];
    current['status'] = { conditions: [c, { ...c, reason: 'Again' }] };
    const r = await suite.request(0, 'PUT', `${csrs}/twice/approval`, current);
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(causes(r), ['status.conditions[1].type']);
    const stored = body(await suite.request(0, 'GET', `${csrs}/twice`));
    assert.deepEqual(stored['status'], {}, 'nothing stored');
  });
});

describe('CertificateApproval', () => {
  it('without approve on signers: 403 naming the signer, nothing stored', async () => {
    assert.equal((await create('ap-1', opensslCsr({ commonName: 'a' }).request)).status, 201);
    const r = await writeSub('ap-1', 'approval', approved(), 'alice');
    assert.equal(r.status, 403, r.text);
    assert.match(
      String(body(r)['message']),
      /user not permitted to approve requests with signerName "example.com\/my-signer"/
    );
    const stored = body(await suite.request(0, 'GET', `${csrs}/ap-1`));
    assert.deepEqual(stored['status'], {});
  });

  it('a RoleBinding of approve does not reach signers, which are cluster-wide', async () => {
    const role = await suite.request(0, 'POST', `${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'approve-my-signer-ns' },
      rules: [
        {
          apiGroups: ['certificates.orch.io'],
          resources: ['signers'],
          resourceNames: [signer],
          verbs: ['approve'],
        },
      ],
    });
    assert.equal(role.status, 201, role.text);
    const rb = await suite.request(0, 'POST', `${rbac}/namespaces/default/rolebindings`, {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'approve-my-signer-alice' },
      roleRef: {
        apiGroup: 'rbac.authorization.orch.io',
        kind: 'ClusterRole',
        name: 'approve-my-signer-ns',
      },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'alice' }],
    });
    assert.equal(rb.status, 201, rb.text);
    // The binding is in effect in its namespace...
    await waitFor(
      'the RoleBinding in effect in default',
      async () => {
        const review = await suite.request(
          0,
          'POST',
          '/apis/authorization.orch.io/v1/subjectaccessreviews',
          {
            apiVersion: 'authorization.orch.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: 'alice',
              resourceAttributes: {
                group: 'certificates.orch.io',
                resource: 'signers',
                verb: 'approve',
                name: signer,
                namespace: 'default',
              },
            },
          }
        );
        return body(review)['status']?.['allowed'] === true;
      },
      { timeoutMs: 10_000 }
    );
    // ...and the approval, asked cluster-wide as upstream asks it, is still refused.
    const r = await writeSub('ap-1', 'approval', approved(), 'alice');
    assert.equal(r.status, 403, r.text);
  });

  it('with approve on signers, resourceNames [the signer]: approved', async () => {
    await grant('alice', 'approve-my-signer', [
      {
        apiGroups: ['certificates.orch.io'],
        resources: ['signers'],
        resourceNames: [signer],
        verbs: ['approve'],
      },
    ]);
    await allowed('alice', 'approve', signer);
    const r = await writeSub('ap-1', 'approval', approved(), 'alice');
    assert.equal(r.status, 200, r.text);
    const c = body(r)['status']['conditions'][0];
    assert.equal(c['type'], 'Approved');
    assert.ok(c['lastUpdateTime'] && c['lastTransitionTime'], 'timestamps set');
  });

  it('that grant does not reach another signer', async () => {
    const r0 = await create('ap-2', opensslCsr({ commonName: 'a' }).request, {
      signerName: 'example.com/other',
    });
    assert.equal(r0.status, 201, r0.text);
    const r = await writeSub('ap-2', 'approval', approved(), 'alice');
    assert.equal(r.status, 403, r.text);
  });

  it('approve on <domain>/* covers every signer of the domain', async () => {
    await grant('bob', 'approve-example-com', [
      {
        apiGroups: ['certificates.orch.io'],
        resources: ['signers'],
        resourceNames: ['example.com/*'],
        verbs: ['approve'],
      },
    ]);
    await allowed('bob', 'approve', 'example.com/*');
    const r = await writeSub('ap-2', 'approval', approved(), 'bob');
    assert.equal(r.status, 200, r.text);
  });

  it('Approved and Denied are exclusive, and Approved cannot be removed', async () => {
    const current = body(await suite.request(0, 'GET', `${csrs}/ap-1`));
    current['status']['conditions'].push({ type: 'Denied', status: 'True', reason: 'Late' });
    const r = await suite.request(0, 'PUT', `${csrs}/ap-1/approval`, current);
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(causes(r), ['status.conditions[1].type']);
    current['status']['conditions'] = [];
    const r2 = await suite.request(0, 'PUT', `${csrs}/ap-1/approval`, current);
    assert.equal(r2.status, 422, r2.text);
    assert.match(String(body(r2)['message']), /may not remove a condition of type "Approved"/);
  });
});

describe('CertificateSigning', () => {
  let certificate: string;
  before(async () => {
    const ca = await createCertificateAuthority({ commonName: 'issued-for-test' });
    certificate = Buffer.from(ca.certPem).toString('base64');
  });

  it('without sign on signers: a status.certificate write is 403', async () => {
    const r = await writeSub('ap-1', 'status', { certificate }, 'alice');
    assert.equal(r.status, 403, r.text);
    assert.match(
      String(body(r)['message']),
      /user not permitted to sign requests with signerName "example.com\/my-signer"/
    );
  });

  it('a status write that leaves the certificate alone needs no sign', async () => {
    const r = await writeSub(
      'ap-1',
      'status',
      {
        conditions: [
          ...body(await suite.request(0, 'GET', `${csrs}/ap-1`))['status']['conditions'],
          { type: 'Progressing', status: 'Unknown', reason: 'Queued' },
        ],
      },
      'alice'
    );
    assert.equal(r.status, 200, r.text);
  });

  it('with sign: the certificate is stored, the Approved condition untouched', async () => {
    await grant('alice', 'sign-my-signer', [
      {
        apiGroups: ['certificates.orch.io'],
        resources: ['signers'],
        resourceNames: [signer],
        verbs: ['sign'],
      },
    ]);
    await allowed('alice', 'sign', signer);
    const r = await writeSub('ap-1', 'status', { certificate }, 'alice');
    assert.equal(r.status, 200, r.text);
    assert.equal(body(r)['status']['certificate'], certificate);
    assert.equal(body(r)['status']['conditions'][0]['type'], 'Approved');
  });

  it('a certificate once set cannot change', async () => {
    const other = Buffer.from(
      (await createCertificateAuthority({ commonName: 'another' })).certPem
    ).toString('base64');
    const r = await writeSub('ap-1', 'status', { certificate: other }, 'alice');
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(causes(r), ['status.certificate']);
  });

  it('status.certificate must hold CERTIFICATE blocks', async () => {
    assert.equal((await create('sg-2', opensslCsr({ commonName: 'a' }).request)).status, 201);
    const r = await writeSub('sg-2', 'status', {
      certificate: Buffer.from(opensslCsr({ commonName: 'a' }).pem).toString('base64'),
    });
    assert.equal(r.status, 422, r.text);
    assert.match(String(body(r)['message']), /only CERTIFICATE PEM blocks are allowed/);
  });
});

describe('CertificateSubjectRestriction', () => {
  it('orch.io/apiserver-client with O=system:masters: 403, nothing stored', async () => {
    const made = opensslCsr({ commonName: 'root', organizations: ['system:masters'] });
    const r = await create('masters', made.request, { signerName: 'orch.io/apiserver-client' });
    assert.equal(r.status, 403, r.text);
    assert.match(
      String(body(r)['message']),
      /use of orch.io\/apiserver-client signer with system:masters group is not allowed/
    );
    assert.equal((await suite.request(0, 'GET', `${csrs}/masters`)).status, 404);
  });

  it('the same signer without system:masters: created', async () => {
    const made = await x509Csr({ commonName: 'carol', organizations: ['dev'] });
    const r = await create('not-masters', made.request, { signerName: 'orch.io/apiserver-client' });
    assert.equal(r.status, 201, r.text);
  });

  it('system:masters for another signer is not this plugin’s business', async () => {
    const made = opensslCsr({ commonName: 'root', organizations: ['system:masters'] });
    const r = await create('masters-other', made.request);
    assert.equal(r.status, 201, r.text);
  });
});

describe('kubectl', () => {
  it('get csr: the columns as upstream', async () => {
    const r0 = await create('table-1', opensslCsr({ commonName: 't' }).request, {
      expirationSeconds: 3600,
    });
    assert.equal(r0.status, 201, r0.text);
    const r = await kubectl(['get', 'csr', 'table-1', 'ap-1']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(lines[0]!.split(/\s+/), [
      'NAME',
      'AGE',
      'SIGNERNAME',
      'REQUESTOR',
      'REQUESTEDDURATION',
      'CONDITION',
    ]);
    const row = (name: string): string[] =>
      lines.find((l) => l.startsWith(`${name} `))!.split(/\s+/);
    assert.deepEqual(row('table-1').slice(2), [signer, 'orch-admin', '60m', 'Pending']);
    assert.deepEqual(row('ap-1').slice(2), [signer, 'orch-admin', '<none>', 'Approved,Issued']);
  });

  it('certificate approve and deny through --raw on /approval', async () => {
    for (const name of ['raw-approve', 'raw-deny']) {
      assert.equal((await create(name, opensslCsr({ commonName: name }).request)).status, 201);
    }
    for (const [name, type] of [
      ['raw-approve', 'Approved'],
      ['raw-deny', 'Denied'],
    ] as const) {
      const got = await kubectl(['get', '--raw', `${csrs}/${name}`]);
      assert.equal(got.code, 0, got.stderr);
      const obj = JSON.parse(got.stdout) as Json;
      obj['status'] = {
        conditions: [
          { type, status: 'True', reason: 'KubectlRaw', message: `${type} through --raw` },
        ],
      };
      const file = join(tmp, `${name}.json`);
      await writeFile(file, JSON.stringify(obj));
      const put = await kubectl(['replace', '--raw', `${csrs}/${name}/approval`, '-f', file]);
      assert.equal(put.code, 0, put.stderr);
    }
    const r = await kubectl(['get', 'csr', 'raw-approve', 'raw-deny']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /raw-approve\s.*\sApproved\n/);
    assert.match(r.stdout, /raw-deny\s.*\sDenied\n/);
  });
});

describe('the certificates service away', () => {
  it('CSR writes fail closed with 503; other kinds and /readyz unaffected; then recovery', async () => {
    await suite.kill('certificates');
    const r = await create('while-away', opensslCsr({ commonName: 'x' }).request);
    assert.equal(r.status, 503, r.text);
    assert.match(String(body(r)['message']), /the certificates service could not be reached/);
    assert.equal((await suite.request(0, 'GET', `${csrs}/while-away`)).status, 404);
    const approval = await writeSub('raw-approve', 'approval', approved());
    assert.equal(approval.status, 503, approval.text);

    const cm = await suite.request(0, 'POST', '/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'unaffected' },
    });
    assert.equal(cm.status, 201, cm.text);
    const readyz = await suite.request(0, 'GET', '/readyz?verbose');
    assert.equal(readyz.status, 200, readyz.text);
    assert.match(readyz.text, /\[-\]certificates-service failed \(not counted/);
    const check = await suite.request(0, 'GET', '/readyz/certificates-service');
    assert.equal(check.status, 500, check.text);
    // Reads of CSRs need no service.
    assert.equal((await suite.request(0, 'GET', csrs)).status, 200);

    await suite.restart('certificates');
    await waitFor(
      'CSR writes accepted again',
      async () =>
        (await create('after-restart', opensslCsr({ commonName: 'x' }).request)).status === 201,
      { timeoutMs: 15_000 }
    );
    const readyAgain = await suite.request(0, 'GET', '/readyz/certificates-service');
    assert.equal(readyAgain.status, 200, readyAgain.text);
  });
});
