// sharedSuite over a layout file as the runner passes it, without starting anything: the
// suite it answers reaches the files of the layout, refuses process control (fault tests need
// a private suite) and leaves the processes to the runner; and the unit tier's refusal.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { sharedSuite, sharedSuiteEnv } from './shared-suite.js';
import type { SuiteLayout } from './suite.js';
import { startEtcd } from './etcd-server.js';
import { startNats } from './nats-server.js';
import { testTierEnv } from './test-tier.js';
import { throwawayPki } from './throwaway-pki.js';
import type { ThrowawayPki } from './throwaway-pki.js';

describe('sharedSuite over the runner layout file', () => {
  let pki: ThrowawayPki;
  let layout: SuiteLayout;
  const saved = { plain: process.env[sharedSuiteEnv()], tier: process.env[testTierEnv] };

  before(async () => {
    pki = await throwawayPki();
    layout = {
      home: pki.dir,
      pkiDir: pki.dir,
      logDir: pki.dir,
      repoRoot: '/nowhere',
      etcdUrl: 'http://127.0.0.1:1',
      etcdDataDir: join(pki.dir, 'etcd'),
      natsUrl: 'nats://127.0.0.1:2',
      natsMonitorUrl: 'http://127.0.0.1:3',
      storage: ['127.0.0.1:4'],
      authorizer: '127.0.0.1:5',
      admission: '127.0.0.1:6',
      gateways: ['https://127.0.0.1:7', 'https://127.0.0.1:8'],
      kubeconfigs: [join(pki.dir, 'admin.kubeconfig'), join(pki.dir, 'admin-1.kubeconfig')],
      controllers: false,
      operational: { storage: 'https://127.0.0.1:9' },
      processNames: ['etcd', 'nats', 'storage', 'authorizer', 'admission', 'gateway-0'],
    };
    const file = join(pki.dir, 'suite.json');
    await writeFile(file, JSON.stringify(layout));
    await writeFile(join(pki.dir, 'gateway-0.log'), 'one\ntwo\nthree\n');
    process.env[sharedSuiteEnv()] = file;
    delete process.env[testTierEnv];
  });

  after(async () => {
    for (const [key, value] of [
      [sharedSuiteEnv(), saved.plain],
      [testTierEnv, saved.tier],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await pki.cleanup();
  });

  it('answers the layout: gateways, kubeconfigs, ports, the PKI, logs', async () => {
    const suite = await sharedSuite();
    assert.equal(suite.shared, true);
    assert.deepEqual(suite.gateways, layout.gateways);
    assert.deepEqual(suite.kubeconfigs, layout.kubeconfigs);
    assert.equal(suite.storagePort, 4);
    assert.equal(suite.authorizerPort, 5);
    assert.deepEqual(suite.operational, layout.operational);
    assert.equal(suite.admissionPort, 6);
    assert.equal(suite.certificatesPort, 0, 'no certificates service in this layout');
    assert.equal(suite.etcd.endpoint, layout.etcdUrl);
    assert.equal(suite.nats.url, layout.natsUrl);
    assert.equal(suite.pki.caFile, pki.caFile);
    assert.equal(suite.pki.file('admin').certFile, pki.file('admin').certFile);
    assert.deepEqual(suite.processNames(), layout.processNames);
    assert.equal(suite.logTail('gateway-0', 2).trim(), 'two\nthree');
  });

  it('refuses process control: fault tests need a private suite', async () => {
    const suite = await sharedSuite();
    const refused = /fault tests need a private suite/;
    await assert.rejects(async () => suite.kill('gateway-0'), refused);
    await assert.rejects(async () => suite.restart('storage'), refused);
    await assert.rejects(async () => suite.stopAdmission(), refused);
    await assert.rejects(async () => suite.etcd.kill(), refused);
    await assert.rejects(async () => suite.nats.stop(), refused);
    await assert.rejects(async () => suite.publisher(), refused);
    assert.throws(() => suite.etcd.pid, refused);
  });

  it('stop() leaves the shared suite to the runner', async () => {
    const suite = await sharedSuite();
    await suite.stop();
    assert.ok(suite.pki.caCertPem.includes('BEGIN CERTIFICATE'), 'the PKI is still there');
  });

  it('is not the suite with controllers', async () => {
    process.env[sharedSuiteEnv({ controllers: true })] = join(pki.dir, 'suite.json');
    try {
      await assert.rejects(sharedSuite({ controllers: true }), /not the shared suite with/);
    } finally {
      delete process.env[sharedSuiteEnv({ controllers: true })];
    }
  });

  it('the unit tier refuses every way to start a process', async () => {
    process.env[testTierEnv] = 'unit';
    try {
      const refused = /a unit test may not start processes/;
      await assert.rejects(sharedSuite(), refused);
      await assert.rejects(startEtcd(), refused);
      await assert.rejects(startNats(), refused);
    } finally {
      delete process.env[testTierEnv];
    }
  });
});
