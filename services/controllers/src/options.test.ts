// The controllers' flags: `--controllers` selection as kube-controller-manager's
// IsControllerEnabled (names and aliases, `*`, `-foo`, first match wins, unknown names refused)
// and the leader election flags' defaults and checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isControllerEnabled } from './controller-names.js';
import {
  completeControllersOptions,
  controllersFlags,
  parseControllersOptions,
  validateControllersOptions,
} from './options.js';

const gc = 'garbage-collector-controller';
const rows: { selection: string[]; name: string; enabled: boolean }[] = [
  { selection: ['*'], name: gc, enabled: true },
  { selection: ['*', '-garbagecollector'], name: gc, enabled: false },
  { selection: ['-garbage-collector-controller', '*'], name: gc, enabled: false },
  { selection: ['namespace'], name: gc, enabled: false },
  { selection: ['namespace'], name: 'namespace-controller', enabled: true },
  { selection: ['garbagecollector', '-garbagecollector'], name: gc, enabled: true },
  { selection: [], name: gc, enabled: false },
];
for (const r of rows) {
  test(`--controllers=${r.selection.join(',')}: ${r.name} ${r.enabled ? 'on' : 'off'}`, () => {
    assert.equal(isControllerEnabled(r.name, r.selection), r.enabled);
  });
}

const errorsOf = (argv: string[]): string[] =>
  validateControllersOptions(
    completeControllersOptions(parseControllersOptions(['--kubeconfig=k', ...argv]))
  );

test('defaults: every controller, leader election with 15s / 10s / 2s on orch-system/orch-controller-manager', () => {
  const o = completeControllersOptions(parseControllersOptions(['--kubeconfig=k']));
  assert.deepEqual(o.controllers, ['*']);
  assert.equal(o.useServiceAccountCredentials, true);
  assert.deepEqual(o.leaderElection, {
    leaderElect: true,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    resourceName: 'orch-controller-manager',
    resourceNamespace: 'orch-system',
  });
  assert.deepEqual(errorsOf([]), []);
});

const invalid: { argv: string[]; error: RegExp }[] = [
  { argv: ['--controllers=*,nosuch'], error: /"nosuch" is not in the list of known controllers/ },
  { argv: ['--controllers=-nosuch'], error: /"nosuch" is not in the list of known controllers/ },
  { argv: ['--leader-elect=maybe'], error: /--leader-elect: invalid boolean/ },
  {
    argv: ['--use-service-account-credentials=2'],
    error: /--use-service-account-credentials: invalid boolean/,
  },
  { argv: ['--leader-elect-lease-duration=5s'], error: /lease-duration must be greater than/ },
  { argv: ['--leader-elect-retry-period=9s'], error: /renew-deadline must be greater than 1.2/ },
  {
    argv: ['--leader-elect-renew-deadline=x'],
    error: /--leader-elect-renew-deadline: invalid duration/,
  },
];
for (const r of invalid) {
  test(`invalid: ${r.argv.join(' ')}`, () => {
    const errs = errorsOf(r.argv);
    assert.ok(
      errs.some((e) => r.error.test(e)),
      errs.join('; ')
    );
  });
}

test('--leader-elect=false turns the timing checks off', () => {
  assert.deepEqual(errorsOf(['--leader-elect=false', '--leader-elect-lease-duration=1s']), []);
});

test('no --feature-gates or --show-hidden-metrics-for-version: no gate switches a controller and no metric of its own has a stability to hide', () => {
  const flags = Object.keys(controllersFlags);
  assert.ok(!flags.includes('feature-gates'), 'no gate acts here');
  assert.ok(!flags.includes('show-hidden-metrics-for-version'), 'no hidden metric to show');
  assert.ok(
    !flags.includes('metrics-port'),
    'metrics on the operational server, not a port of their own'
  );
  assert.ok(flags.includes('secure-port'), "the operational server, on upstream's flag");
});
