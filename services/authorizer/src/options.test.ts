// The authorizer's options: flag defaults as the launchers rely on them, and every error at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidOptionsError } from '@orch/component-base/flags';
import { authorizerOptions } from './options.js';

test('authorizer options: defaults', () => {
  const o = authorizerOptions(['--kubeconfig=k']);
  assert.equal(o.mode, 'RBAC');
  assert.equal(o.storageAddress, '127.0.0.1:6501');
  assert.deepEqual(o.natsUrls, ['nats://127.0.0.1:4222']);
  assert.equal(o.serving.bindAddress, '127.0.0.1');
  assert.equal(o.serving.securePort, 6502);
  assert.equal(o.serving.tls, undefined);
  assert.equal(o.operational.securePort, 0, 'the operational server is off unless asked for');
  assert.equal(o.operational.profiling, true);
  assert.deepEqual(o.operational.alwaysAllowPaths, ['/healthz', '/readyz', '/livez']);
  assert.equal(o.bootstrapPolicy, true);
  const off = authorizerOptions(['--kubeconfig=k', '--bootstrap-policy=false']);
  assert.equal(off.bootstrapPolicy, false);
});

test('authorizer options: RBAC needs --kubeconfig; the other modes do not', () => {
  assert.throws(() => authorizerOptions([]), /--kubeconfig/);
  assert.equal(authorizerOptions(['--authorization-mode=AlwaysAllow']).mode, 'AlwaysAllow');
});

test('authorizer options: every error at once', () => {
  try {
    authorizerOptions(['--authorization-mode=Maybe', '--tls-cert-file=c', '--secure-port=x']);
    assert.fail('accepted');
  } catch (err) {
    assert.ok(err instanceof InvalidOptionsError);
    assert.equal(err.errors.length, 3, err.message);
    assert.match(err.message, /--authorization-mode must be one of/);
    assert.match(err.message, /go together/);
    assert.match(err.message, /--secure-port/);
  }
});

test('authorizer options: an unknown feature gate stops the start', () => {
  assert.throws(
    () => authorizerOptions(['--kubeconfig=k', '--feature-gates=Nope=true']),
    (err: unknown) =>
      err instanceof InvalidOptionsError && /unrecognized feature gate: Nope/.test(err.message)
  );
  assert.equal(
    authorizerOptions([
      '--kubeconfig=k',
      '--feature-gates=AllBeta=false',
    ]).featureGates.gate.enabled('ConsistentListFromCache'),
    false
  );
});
