// The cleaner's rules (spec: "Garbage collection of requests"; upstream cleaner.go) on an
// injected clock: approved, denied and failed go 1 hour after their condition's last update,
// pending after 24 hours, any request once its certificate has expired.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCertificateAuthority } from '@orch/component-base/pki';
import { loadAuthority, signRequest } from '../signer/authority.js';
import { parseCsr } from '../csr.js';
import type { CertificateSigningRequest, CsrCondition } from '../csr.js';
import { csrObject, x509Request } from '../test-requests.js';
import { cleanupReason } from './csr-cleaner.js';

const t0 = Date.parse('2030-01-01T00:00:00Z');
const at = (ms: number): Date => new Date(t0 + ms);
const min = 60_000;
const hour = 60 * min;

function csr(conditions: CsrCondition[] = [], certificate?: string): CertificateSigningRequest {
  return {
    metadata: { name: 'c', creationTimestamp: at(0).toISOString() },
    spec: { request: '', signerName: 'orch.io/apiserver-client' },
    status: { conditions, ...(certificate ? { certificate } : {}) },
  };
}
const cond = (type: string, ms: number): CsrCondition => ({
  type,
  status: 'True',
  lastUpdateTime: at(ms).toISOString(),
});

test('cleaner rows: approved, denied, failed 1 hour after the last change; pending 24 hours', () => {
  const rows: [string, CertificateSigningRequest, number, boolean][] = [
    ['pending, 23 h old: kept', csr(), 23 * hour, false],
    ['pending, 24 h + 1 min old: removed', csr(), 24 * hour + min, true],
    ['approved 59 min ago: kept', csr([cond('Approved', 0)]), 59 * min, false],
    ['approved 61 min ago: removed', csr([cond('Approved', 0)]), 61 * min, true],
    ['denied 59 min ago: kept', csr([cond('Denied', 0)]), 59 * min, false],
    ['denied 61 min ago: removed', csr([cond('Denied', 0)]), 61 * min, true],
    [
      'failed 61 min ago: removed',
      csr([cond('Approved', 0), cond('Failed', 2 * hour)]),
      3 * hour + min,
      true,
    ],
    [
      'failed 30 min ago, approved 3 h ago: removed (approved)',
      csr([cond('Approved', 0), cond('Failed', 150 * min)]),
      3 * hour,
      true,
    ],
    [
      'approved 30 min ago, created 30 h ago: kept (not pending)',
      csr([cond('Approved', 30 * hour)]),
      30 * hour + 30 * min,
      false,
    ],
  ];
  for (const [row, c, now, removed] of rows)
    assert.equal(cleanupReason(c, at(now)) !== undefined, removed, row);
});

test('cleaner row: any request is removed once its certificate has expired', async () => {
  const caPem = await createCertificateAuthority({ commonName: 'ca' });
  const ca = await loadAuthority(caPem.certPem, caPem.keyPem);
  const req = parseCsr(csrObject('x', (await x509Request({ cn: 'u' })).pem, 'x', ['client auth']));
  const now = new Date();
  const pem = await signRequest(ca, req, {
    ttlMs: 10 * min,
    usages: ['client auth'],
    backdateMs: 0,
    shortMs: 0,
    now,
  });
  // approved just now, so only the expiry can remove it
  const c = csr(
    [{ type: 'Approved', status: 'True', lastUpdateTime: now.toISOString() }],
    Buffer.from(pem).toString('base64')
  );
  c.metadata.creationTimestamp = now.toISOString();
  assert.equal(cleanupReason(c, new Date(now.getTime() + 9 * min)), undefined);
  assert.equal(cleanupReason(c, new Date(now.getTime() + 11 * min)), 'its certificate has expired');
});
