// --controllers as upstream's IsControllerEnabled ("*", "foo", "-foo"; bootstrapsigner and
// tokencleaner off by default) and --signers limited to the built-in names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  completeCertificateControllersOptions,
  isControllerEnabled,
  validateCertificateControllersOptions,
} from './controller-options.js';

test('--controllers: "*" enables the defaults; a name or -name decides', () => {
  const rows: [string[], string, boolean][] = [
    [['*'], 'csrsigning', true],
    [['*'], 'bootstrapsigner', false],
    [['*', 'bootstrapsigner'], 'bootstrapsigner', true],
    [['*', '-csrsigning'], 'csrsigning', false],
    [['-csrsigning', '*'], 'csrsigning', false],
    [['csrapproving'], 'csrsigning', false],
    [['csrapproving'], 'csrapproving', true],
    [[], 'csrapproving', false],
  ];
  for (const [list, name, want] of rows)
    assert.equal(isControllerEnabled(name, list), want, `${list.join(',')} ${name}`);
});

test('validation names the bad flag', () => {
  const problems: string[] = [];
  const o = completeCertificateControllersOptions(
    {
      controllers: '*,nosuch',
      signers: 'example.com/custom',
      'cluster-signing-duration': 'x',
      'cluster-signing-cert-file': 'ca.crt',
    },
    problems
  );
  const errors = [...problems, ...validateCertificateControllersOptions(o)];
  assert.ok(
    errors.some((e) => e.includes('--controllers: "nosuch"')),
    errors.join('\n')
  );
  assert.ok(
    errors.some((e) => e.includes('--signers: "example.com/custom"')),
    errors.join('\n')
  );
  assert.ok(
    errors.some((e) => e.startsWith('--cluster-signing-duration')),
    errors.join('\n')
  );
  assert.ok(
    errors.some((e) =>
      e.includes('--cluster-signing-cert-file and --cluster-signing-key-file go together')
    ),
    errors.join('\n')
  );
  const ok = completeCertificateControllersOptions(
    { controllers: '*', signers: '', 'cluster-signing-duration': '1h' },
    []
  );
  assert.deepEqual(
    validateCertificateControllersOptions(ok),
    [],
    'no CA files: csrsigning is skipped, not an error'
  );
  assert.equal(ok.clusterSigningDurationMs, 3600_000);
});
