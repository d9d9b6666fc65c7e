// The admission service's flags: what is required, defaults, every error at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionOptions } from './options.js';

const tls = ['--tls-cert-file=c', '--tls-private-key-file=k', '--client-ca-file=ca'];

test('admission options: defaults', () => {
  const o = admissionOptions([...tls, '--storage-servers=127.0.0.1:6501']);
  assert.equal(o.storageAddress, '127.0.0.1:6501');
  assert.equal(o.serving.securePort, 6503);
  assert.equal(o.logLevel, 'info');
});

test('admission options: --storage-servers is required, and every error is reported at once', () => {
  assert.throws(
    () => admissionOptions(['--storage-servers=', '--log-level=loud', ...tls]),
    (e: Error) =>
      /--storage-servers is required: the plugins read the cluster through informers/.test(
        e.message
      ) && /--log-level must be one of/.test(e.message)
  );
});

test('admission options: DefaultTolerationSeconds flags, 300 s unless given', () => {
  const base = [...tls, '--storage-servers=127.0.0.1:6501'];
  const d = admissionOptions(base);
  assert.equal(d.defaultNotReadyTolerationSeconds, 300);
  assert.equal(d.defaultUnreachableTolerationSeconds, 300);
  const o = admissionOptions([
    ...base,
    '--default-not-ready-toleration-seconds=60',
    '--default-unreachable-toleration-seconds=0',
  ]);
  assert.equal(o.defaultNotReadyTolerationSeconds, 60);
  assert.equal(o.defaultUnreachableTolerationSeconds, 0);
  assert.throws(
    () => admissionOptions([...base, '--default-unreachable-toleration-seconds=5m']),
    /--default-unreachable-toleration-seconds must be a non-negative integer \(seconds\)/
  );
});

test('admission options: a GA gate locked to its default cannot be disabled', () => {
  assert.throws(
    () => admissionOptions(['--feature-gates=AdmissionWebhookMatchConditions=false']),
    /cannot set feature gate AdmissionWebhookMatchConditions to false, feature is locked to true/
  );
});
