import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';

import { Etcd3 } from 'etcd3';
import { StringCodec, connect } from 'nats';

import { freePort, runningProcessCount } from '@orch/suite';

import { startEtcd } from './etcd-server.js';
import { startNats } from './nats-server.js';
import { throwawayPki } from './throwaway-pki.js';

/** Whether a process with this pid still exists (signal 0 only checks). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

describe('harness', () => {
  after(() => {
    assert.equal(runningProcessCount(), 0, 'no backend process left running');
  });

  it('freePort returns a usable loopback port', async () => {
    const port = await freePort();
    assert.ok(port > 0 && port < 65536);
  });

  it('starts etcd, serves puts and gets, and stops cleanly', async () => {
    const etcd = await startEtcd();
    assert.match(etcd.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new Etcd3({ hosts: etcd.endpoint });
    try {
      await client.put('k').value('v');
      assert.equal(await client.get('k').string(), 'v');
    } finally {
      client.close();
    }
    assert.ok(isAlive(etcd.pid));
    await etcd.stop();
    assert.equal(isAlive(etcd.pid), false, 'etcd exited');
    assert.equal(existsSync(etcd.dataDir), false, 'temporary data dir removed');
  });

  it('runs two etcds side by side and survives kill', async () => {
    const [a, b] = await Promise.all([startEtcd(), startEtcd()]);
    assert.notEqual(a.endpoint, b.endpoint);
    await a.kill();
    assert.equal(isAlive(a.pid), false, 'etcd killed');
    assert.ok(existsSync(a.dataDir), 'kill keeps the data dir');
    await Promise.all([a.stop(), b.stop()]);
    assert.equal(existsSync(a.dataDir), false);
    assert.equal(isAlive(b.pid), false);
  });

  it('starts NATS, delivers a published message, and stops cleanly', async () => {
    const nats = await startNats();
    assert.match(nats.url, /^nats:\/\/127\.0\.0\.1:\d+$/);
    const nc = await connect({ servers: nats.url });
    const sc = StringCodec();
    try {
      const sub = nc.subscribe('orch.test', { max: 1 });
      const received = (async () => {
        for await (const msg of sub) return sc.decode(msg.data);
        return undefined;
      })();
      nc.publish('orch.test', sc.encode('hello'));
      assert.equal(await received, 'hello');
    } finally {
      await nc.close();
    }
    assert.ok(isAlive(nats.pid));
    await nats.stop();
    assert.equal(isAlive(nats.pid), false, 'nats-server exited');
  });

  it('creates and removes a throwaway PKI', async () => {
    const pki = await throwawayPki();
    const cert = new X509Certificate(await readFile(pki.file('gateway').certFile));
    assert.ok(cert.checkIssued(new X509Certificate(pki.caCertPem)));
    await pki.cleanup();
    assert.equal(existsSync(pki.dir), false);
  });
});
