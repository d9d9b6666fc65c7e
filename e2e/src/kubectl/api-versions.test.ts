// API versions over time with the real kubectl, against a suite whose gateway runs with
// --runtime-config: a deprecated version (SelfSubjectReview v1beta1, turned on) answers with the
// Warning kubectl prints; a removed version (spec table) is 404 naming its replacement; a version
// turned off is gone from `kubectl api-versions` and `api-resources`; a plain user sees who they
// are through SelfSubjectReview v1 (system:basic-user allows it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite, startGateway, userKubeconfig } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let shared: Suite | undefined;
let suite: Suite;
let erin = '';
const dir = mkdtempSync(join(tmpdir(), 'orch-api-versions-'));

const kubectl = (kubeconfig: string, args: string[]) =>
  runKubectl(kubeconfig, join(dir, 'cache'), args);
const admin = (args: string[]) => kubectl(suite.kubeconfigs[0]!, args);

function bodyFile(body: unknown): string {
  const file = join(dir, `body-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(body));
  return file;
}

before(async () => {
  shared = await sharedSuite();
  suite = await startGateway(shared, {
    args: ['--runtime-config=authentication.orch.io/v1beta1=true,events.orch.io/v1=false'],
  });
  erin = (await userKubeconfig(suite.pki, suite.gateways[0]!, 'erin', ['qa'])).kubeconfig;
});

after(async () => {
  await suite?.stop();
  await shared?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('a deprecated version: kubectl prints the Warning naming the replacement', async () => {
  const file = bodyFile({
    apiVersion: 'authentication.orch.io/v1beta1',
    kind: 'SelfSubjectReview',
  });
  const r = await admin([
    'create',
    '--raw',
    '/apis/authentication.orch.io/v1beta1/selfsubjectreviews',
    '-f',
    file,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /Warning: authentication\.orch\.io\/v1beta1 SelfSubjectReview is deprecated in v1\.30\+, unavailable in v1\.33\+; use authentication\.orch\.io\/v1 SelfSubjectReview/
  );
  assert.equal(JSON.parse(r.stdout).status.userInfo.username, 'orch-admin');
});

test('a removed version: kubectl get --raw answers NotFound naming the replacement', async () => {
  const r = await admin(['get', '--raw', '/apis/batch/v1beta1/namespaces/default/cronjobs']);
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /NotFound.*CronJob batch\/v1beta1 was removed in v1\.25 and is not served; use batch\/v1 \(available since 1\.21\)/
  );
});

test('a version turned off is gone from api-versions and api-resources', async () => {
  const versions = await admin(['api-versions']);
  assert.equal(versions.code, 0, versions.stderr);
  const lines = versions.stdout.trim().split('\n');
  assert.ok(lines.includes('authentication.orch.io/v1beta1'));
  assert.ok(!lines.includes('events.orch.io/v1'));
  assert.ok(lines.includes('v1'));
  const events = await admin(['get', 'events.v1.events.orch.io']);
  assert.notEqual(events.code, 0);
  const core = await admin(['get', 'events.v1.', '-A']);
  assert.equal(core.code, 0, core.stderr);
});

test('SelfSubjectReview v1: a plain user sees their own identity', async () => {
  const file = bodyFile({ apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' });
  const r = await kubectl(erin, [
    'create',
    '--raw',
    '/apis/authentication.orch.io/v1/selfsubjectreviews',
    '-f',
    file,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const user = JSON.parse(r.stdout).status.userInfo;
  assert.equal(user.username, 'erin');
  assert.deepEqual(user.groups, ['qa', 'system:authenticated']);
});
