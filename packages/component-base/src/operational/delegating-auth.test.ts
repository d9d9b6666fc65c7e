// The pure parts of the delegated authorization: the always-allowed paths (exact, or a prefix
// with a trailing *), the HTTP method as a non-resource verb, and what /configz and /flagz hide.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nonResourceVerb, pathAlwaysAllowed } from './delegating-auth.js';
import { isSecretKey, redact } from './redact.js';

describe('pathAlwaysAllowed', () => {
  const allowed = ['/healthz', '/readyz', '/livez', '/debug/*'];
  const rows: [string, boolean][] = [
    ['/healthz', true],
    ['/healthz/ping', false],
    ['/readyzz', false],
    ['/debug/pprof/heap', true],
    ['/debug', false],
    ['/metrics', false],
  ];
  for (const [path, want] of rows) {
    it(`${path}: ${want ? 'open' : 'authorized'}`, () => {
      assert.equal(pathAlwaysAllowed(path, allowed), want);
    });
  }
});

describe('nonResourceVerb', () => {
  it('lower-cases the method, HEAD as get', () => {
    assert.deepEqual(['GET', 'HEAD', 'PUT', 'POST', 'DELETE', undefined].map(nonResourceVerb), [
      'get',
      'get',
      'put',
      'post',
      'delete',
      'get',
    ]);
  });
});

describe('redact', () => {
  it('hides tokens, passwords, keys and buffers, not file paths', () => {
    assert.equal(isSecretKey('bearerToken'), true);
    assert.equal(isSecretKey('tokenFile'), false);
    assert.equal(isSecretKey('service-account-private-key-file'), false);
    assert.equal(isSecretKey('client-key-data'), true);
    assert.deepEqual(
      redact({
        a: { password: 'p', keyFile: '/k', list: [{ token: 't' }], n: 1 },
        b: Buffer.from('x'),
        m: new Map([['secret', 's']]),
        f: () => 1,
      }),
      {
        a: { password: '[redacted]', keyFile: '/k', list: [{ token: '[redacted]' }], n: 1 },
        b: '[redacted]',
        m: { secret: '[redacted]' },
        f: '[redacted]',
      }
    );
  });
});
