// CertificateSigningRequest validation and strategies as pure functions, row by row: each row
// names the upstream rule (pkg/apis/certificates/validation, pkg/registry/certificates/
// certificates/strategy.go) it checks. spec.request here is an `openssl req` PEM (its signature
// is the certificates service's to check).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { createCertificateAuthority } from '@orch/component-base/pki';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  certificateSigningRequestApprovalStrategy,
  certificateSigningRequestStatusStrategy,
  certificateSigningRequestStrategy,
} from './strategy.js';
import {
  validateCertificateSigningRequest,
  validateCertificateSigningRequestUpdate,
} from './validation.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const requestPem = execFileSync(
  'openssl',
  ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'].concat([
    '-keyout',
    '/dev/null',
    '-subj',
    '/O=dev/CN=alice',
  ]),
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }
);
const certPem = (await createCertificateAuthority({ commonName: 'test-ca' })).certPem;

type Json = Record<string, unknown>;
const csr = (spec: Json = {}, status?: Json): ApiObject => ({
  apiVersion: 'certificates.orch.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'req-1' },
  spec: {
    request: b64(requestPem),
    signerName: 'example.com/my-signer',
    usages: ['digital signature', 'client auth'],
    ...spec,
  },
  ...(status ? { status } : {}),
});
const cond = (type: string, status = 'True'): Json => ({ type, status });

const fields = (errs: { field: string; type: string }[]): string[] =>
  errs.map((e) => `${e.type} ${e.field}`);

const rows: { rule: string; obj: ApiObject; errors: string[] }[] = [
  { rule: 'a sound request', obj: csr(), errors: [] },
  {
    rule: 'validateCSR: spec.request required',
    obj: csr({ request: undefined }),
    errors: ['FieldValueRequired spec.request'],
  },
  {
    rule: 'validateCSR: PEM block type must be CERTIFICATE REQUEST (malformed PEM)',
    obj: csr({ request: b64('-----BEGIN CERTIFICATE REQUEST-----\nnot base64!\n') }),
    errors: ['FieldValueInvalid spec.request'],
  },
  {
    rule: 'validateCSR: PEM block type must be CERTIFICATE REQUEST (a CERTIFICATE)',
    obj: csr({ request: b64(certPem) }),
    errors: ['FieldValueInvalid spec.request'],
  },
  {
    rule: 'usages required',
    obj: csr({ usages: [] }),
    errors: ['FieldValueRequired spec.usages'],
  },
  {
    rule: 'usages known (allValidUsages)',
    obj: csr({ usages: ['client auth', 'teleportation'] }),
    errors: ['FieldValueNotSupported spec.usages[1]'],
  },
  {
    rule: 'usages unique',
    obj: csr({ usages: ['client auth', 'client auth'] }),
    errors: ['FieldValueDuplicate spec.usages[1]'],
  },
  {
    rule: 'ValidateSignerName: required',
    obj: csr({ signerName: '' }),
    errors: ['FieldValueRequired spec.signerName'],
  },
  {
    rule: 'ValidateSignerName: of the form example.com/signer-name',
    obj: csr({ signerName: 'my-signer' }),
    errors: ['FieldValueInvalid spec.signerName'],
  },
  {
    rule: 'ValidateSignerName: a domain of two segments at least',
    obj: csr({ signerName: 'localhost/my-signer' }),
    errors: ['FieldValueInvalid spec.signerName'],
  },
  {
    rule: 'ValidateSignerName: domain labels are DNS-1123 labels',
    obj: csr({ signerName: 'Example.com/my-signer' }),
    errors: ['FieldValueInvalid spec.signerName'],
  },
  {
    rule: 'ValidateSignerName: path components are DNS-1123 subdomains',
    obj: csr({ signerName: 'example.com/My_Signer' }),
    errors: ['FieldValueInvalid spec.signerName'],
  },
  {
    rule: 'ValidateSignerName: a namespaced path is allowed (<fqdn>/<namespace>.<name>)',
    obj: csr({ signerName: 'example.com/team-a.issuer' }),
    errors: [],
  },
  {
    rule: 'the legacy signerName is not allowed via this API version',
    obj: csr({ signerName: 'orch.io/legacy-unknown' }),
    errors: ['FieldValueInvalid spec.signerName'],
  },
  {
    rule: 'expirationSeconds may not be less than 600',
    obj: csr({ expirationSeconds: 599 }),
    errors: ['FieldValueInvalid spec.expirationSeconds'],
  },
  { rule: 'expirationSeconds 600 is allowed', obj: csr({ expirationSeconds: 600 }), errors: [] },
  {
    rule: 'validateConditions: condition types unique (a second Approved)',
    obj: csr({}, { conditions: [cond('Approved'), cond('Approved')] }),
    errors: ['FieldValueDuplicate status.conditions[1].type'],
  },
  {
    rule: 'validateConditions: type required',
    obj: csr({}, { conditions: [cond('')] }),
    errors: ['FieldValueRequired status.conditions[0].type'],
  },
  {
    rule: 'validateConditions: status required',
    obj: csr({}, { conditions: [{ type: 'Custom' }] }),
    errors: ['FieldValueRequired status.conditions[0].status'],
  },
  {
    rule: 'validateConditions: status True, False or Unknown',
    obj: csr({}, { conditions: [cond('Custom', 'Maybe')] }),
    errors: ['FieldValueNotSupported status.conditions[0].status'],
  },
  {
    rule: 'validateConditions: a custom condition may be False',
    obj: csr({}, { conditions: [cond('Custom', 'False')] }),
    errors: [],
  },
  {
    rule: 'validateConditions: Approved only True',
    obj: csr({}, { conditions: [cond('Approved', 'False')] }),
    errors: ['FieldValueNotSupported status.conditions[0].status'],
  },
  {
    rule: 'validateConditions: Denied only True',
    obj: csr({}, { conditions: [cond('Denied', 'Unknown')] }),
    errors: ['FieldValueNotSupported status.conditions[0].status'],
  },
  {
    rule: 'validateConditions: Failed only True',
    obj: csr({}, { conditions: [cond('Failed', 'False')] }),
    errors: ['FieldValueNotSupported status.conditions[0].status'],
  },
  {
    rule: 'validateConditions: Approved and Denied conditions are mutually exclusive',
    obj: csr({}, { conditions: [cond('Approved'), cond('Denied')] }),
    errors: ['FieldValueInvalid status.conditions[1].type'],
  },
  {
    rule: 'validateCertificate: CERTIFICATE blocks holding certificates',
    obj: csr({}, { certificate: b64(certPem + certPem) }),
    errors: [],
  },
  {
    rule: 'validateCertificate: only CERTIFICATE PEM blocks are allowed',
    obj: csr({}, { certificate: b64(requestPem) }),
    errors: ['FieldValueInvalid status.certificate'],
  },
  {
    rule: 'validateCertificate: no PEM block headers are permitted',
    obj: csr(
      {},
      {
        certificate: b64(
          certPem.replace(
            '-----BEGIN CERTIFICATE-----\n',
            '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n'
          )
        ),
      }
    ),
    errors: ['FieldValueInvalid status.certificate'],
  },
  {
    rule: 'validateCertificate: must contain at least one CERTIFICATE PEM block',
    obj: csr({}, { certificate: b64('just text') }),
    errors: ['FieldValueInvalid status.certificate'],
  },
  {
    rule: 'validateCertificate: the block must hold a parseable certificate',
    obj: csr(
      {},
      {
        certificate: b64(
          `-----BEGIN CERTIFICATE-----\n${b64('not der')}\n-----END CERTIFICATE-----\n`
        ),
      }
    ),
    errors: ['FieldValueInvalid status.certificate'],
  },
];
for (const row of rows) {
  test(`validateCertificateSigningRequest: ${row.rule}`, () => {
    assert.deepEqual(fields(validateCertificateSigningRequest(row.obj)), row.errors);
  });
}

const updateRows: { rule: string; old: ApiObject; obj: ApiObject; errors: string[] }[] = [
  {
    rule: 'updates may not remove a condition of type Approved',
    old: csr({}, { conditions: [cond('Approved')] }),
    obj: csr({}, {}),
    errors: ['FieldValueForbidden status.conditions'],
  },
  {
    rule: 'updates may not remove a condition of type Failed',
    old: csr({}, { conditions: [cond('Approved'), cond('Failed')] }),
    obj: csr({}, { conditions: [cond('Approved')] }),
    errors: ['FieldValueForbidden status.conditions'],
  },
  {
    rule: 'updates may not modify existing certificate content',
    old: csr({}, { certificate: b64(certPem) }),
    obj: csr({}, { certificate: b64(certPem + certPem) }),
    errors: ['FieldValueInvalid status.certificate'],
  },
  {
    rule: 'a certificate set once is kept: the same content is fine',
    old: csr({}, { conditions: [cond('Approved')], certificate: b64(certPem) }),
    obj: csr({}, { conditions: [cond('Approved')], certificate: b64(certPem) }),
    errors: [],
  },
  {
    rule: 'getValidationOptions: a rule the stored object broke does not block its updates',
    old: csr({ usages: ['client auth', 'client auth'] }, {}),
    obj: csr({ usages: ['client auth', 'client auth'] }, { conditions: [cond('Approved')] }),
    errors: [],
  },
  {
    rule: 'getValidationOptions: a rule the stored object kept still holds',
    old: csr({}, { conditions: [cond('Approved')] }),
    obj: csr({}, { conditions: [cond('Approved'), cond('Approved')] }),
    errors: ['FieldValueDuplicate status.conditions[1].type'],
  },
];
for (const row of updateRows) {
  test(`validateCertificateSigningRequestUpdate: ${row.rule}`, () => {
    assert.deepEqual(fields(validateCertificateSigningRequestUpdate(row.obj, row.old)), row.errors);
  });
}

test('PrepareForCreate: the requester replaces spec.username/uid/groups/extra; status dropped', () => {
  const obj = csr(
    { username: 'mallory', uid: 'u-0', groups: ['system:masters'], extra: { x: ['y'] } },
    { conditions: [cond('Approved')] }
  );
  certificateSigningRequestStrategy.prepareForCreate(obj, {
    user: {
      name: 'alice',
      uid: 'u-1',
      groups: ['dev', 'system:authenticated'],
      extra: { scopes: ['a'] },
    },
  });
  const spec = obj['spec'] as Json;
  assert.equal(spec['username'], 'alice');
  assert.equal(spec['uid'], 'u-1');
  assert.deepEqual(spec['groups'], ['dev', 'system:authenticated']);
  assert.deepEqual(spec['extra'], { scopes: ['a'] });
  assert.equal(obj['status'], undefined);
});

test('PrepareForUpdate (main resource): spec and status stay as stored', () => {
  const old = csr({ username: 'alice' }, { conditions: [cond('Approved')] });
  const obj = csr({ username: 'mallory', signerName: 'example.com/other' }, {});
  obj.metadata.labels = { a: 'b' };
  certificateSigningRequestStrategy.prepareForUpdate(obj, old);
  assert.deepEqual(obj['spec'], old['spec']);
  assert.deepEqual(obj['status'], old['status']);
  assert.deepEqual(obj.metadata.labels, { a: 'b' });
});

test('status strategy: certificate and Failed written; Approved kept as stored, spec kept', () => {
  const old = csr({}, { conditions: [{ ...cond('Approved'), reason: 'ByAdmin' }] });
  const obj = csr(
    { signerName: 'example.com/other' },
    { conditions: [cond('Denied'), cond('Failed')], certificate: b64(certPem) }
  );
  certificateSigningRequestStatusStrategy.prepareForUpdate(obj, old);
  const status = obj['status'] as { conditions: Json[]; certificate: string };
  assert.deepEqual(
    status.conditions.map((c) => [c['type'], c['reason']]),
    [
      ['Approved', 'ByAdmin'],
      ['Failed', undefined],
    ]
  );
  assert.equal(status.certificate, b64(certPem));
  assert.equal((obj['spec'] as Json)['signerName'], 'example.com/my-signer');
  assert.ok(status.conditions[1]!['lastUpdateTime'], 'timestamps filled in');
  assert.ok(status.conditions[1]!['lastTransitionTime']);
});

test('approval strategy: Approved/Denied written; certificate and other conditions kept', () => {
  const old = csr({}, { conditions: [cond('Failed')], certificate: b64(certPem) });
  const obj = csr({}, { conditions: [cond('Approved'), cond('Custom', 'False')], certificate: '' });
  certificateSigningRequestApprovalStrategy.prepareForUpdate(obj, old);
  const status = obj['status'] as { conditions: Json[]; certificate: string };
  assert.deepEqual(
    status.conditions.map((c) => c['type']),
    ['Approved', 'Failed']
  );
  assert.equal(status.certificate, b64(certPem));
});

test('populateConditionTimestamps: lastTransitionTime kept from the same type and status', () => {
  const stamped = { ...cond('Approved'), lastTransitionTime: '2024-01-01T00:00:00Z' };
  const old = csr({}, { conditions: [stamped] });
  const obj = csr({}, { conditions: [cond('Approved')] });
  certificateSigningRequestApprovalStrategy.prepareForUpdate(obj, old);
  const c = (obj['status'] as { conditions: Json[] }).conditions[0]!;
  assert.equal(c['lastTransitionTime'], '2024-01-01T00:00:00Z');
});
