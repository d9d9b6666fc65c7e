// The certificates service's flags: parse → complete → validate, every error at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { certificatesOptions } from './options.js';

test('defaults: port 6504, the authorizer on 127.0.0.1:6502, no kubeconfig', () => {
  const o = certificatesOptions([]);
  assert.equal(o.serving.securePort, 6504);
  assert.equal(o.authorizerAddress, '127.0.0.1:6502');
  assert.equal(o.kubeconfig, '');
  assert.equal(o.serving.tls, undefined);
});

test('every flag read', () => {
  const o = certificatesOptions([
    '--bind-address=0.0.0.0',
    '--secure-port=7000',
    '--tls-cert-file=c.crt',
    '--tls-private-key-file=c.key',
    '--client-ca-file=ca.crt',
    '--authorizer-servers=authorizer:6502',
    '--kubeconfig=/pki/certificates.kubeconfig',
    '--metrics-port=9090',
    '--log-level=debug',
  ]);
  assert.deepEqual(o.serving.tls, { certFile: 'c.crt', keyFile: 'c.key', caFile: 'ca.crt' });
  assert.equal(o.authorizerAddress, 'authorizer:6502');
  assert.equal(o.kubeconfig, '/pki/certificates.kubeconfig');
  // the deprecated --metrics-port: the operational server's port, served with the certificate
  assert.equal(o.operational.securePort, 9090);
  assert.deepEqual(o.operational.tls, o.serving.tls);
  assert.equal(o.logLevel, 'debug');
});

test('bad flags: every error at once', () => {
  assert.throws(
    () =>
      certificatesOptions([
        '--authorizer-servers=',
        '--tls-cert-file=c.crt',
        '--secure-port=70000',
        '--log-level=loud',
      ]),
    (err: Error) => {
      assert.match(err.message, /--authorizer-servers is required/);
      assert.match(
        err.message,
        /--tls-cert-file, --tls-private-key-file and --client-ca-file go together/
      );
      assert.match(err.message, /--secure-port must be a port number/);
      assert.match(err.message, /--log-level must be one of/);
      return true;
    }
  );
});
