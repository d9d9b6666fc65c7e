// The test node agent answers containerLogs as the kubelet reads the options, only to a client
// whose certificate chains to the CA it was given.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, test } from 'node:test';
import { createCertificateAuthority, issueCertificate } from '@orch/component-base/pki';
import { startNodeAgent } from './node-agent.js';
import type { NodeAgent } from './node-agent.js';

interface Answer {
  status: number;
  body: string;
}

describe('test node agent: containerLogs', () => {
  let agent: NodeAgent;
  let client: { certPem: string; keyPem: string };
  const ref = { namespace: 'ns', pod: 'p', container: 'c' };

  const get = (path: string, cert = client, onData?: (s: string) => void): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: agent.port,
          path,
          ca: agent.caPem,
          cert: cert.certPem,
          key: cert.keyPem,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (s: string) => {
            body += s;
            onData?.(s);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        }
      );
      req.on('error', reject);
      req.end();
    });

  before(async () => {
    const ca = await createCertificateAuthority({ commonName: 'kubelet-client-ca' });
    client = await issueCertificate(ca, { commonName: 'system:orch:gateway', usages: ['client'] });
    agent = await startNodeAgent({ clientCaPem: ca.certPem });
    agent.appendLog(ref, [
      { time: new Date('2026-01-01T00:00:00.123Z'), text: 'one' },
      { time: new Date('2026-01-01T00:00:01Z'), text: 'two' },
      { time: new Date('2026-01-01T00:00:02Z'), text: 'three' },
    ]);
    agent.appendLog(ref, ['before the restart'], true);
  });
  after(() => agent.stop());

  test('the whole log, then tailLines, timestamps, limitBytes, sinceTime and previous', async () => {
    assert.deepEqual(await get('/containerLogs/ns/p/c'), {
      status: 200,
      body: 'one\ntwo\nthree\n',
    });
    assert.equal((await get('/containerLogs/ns/p/c?tailLines=1')).body, 'three\n');
    assert.equal(
      (await get('/containerLogs/ns/p/c?timestamps=true&tailLines=3')).body.split('\n')[0],
      '2026-01-01T00:00:00.123000000Z one'
    );
    assert.equal((await get('/containerLogs/ns/p/c?limitBytes=6')).body, 'one\ntw');
    assert.equal(
      (await get('/containerLogs/ns/p/c?sinceTime=2026-01-01T00:00:01Z')).body,
      'two\nthree\n'
    );
    assert.equal((await get('/containerLogs/ns/p/c?previous=true')).body, 'before the restart\n');
    assert.equal((await get('/containerLogs/ns/p/other')).status, 404);
    assert.equal(agent.calls.at(-1)?.clientName, 'system:orch:gateway');
  });

  test('a follow streams appended lines and ends when the log ends', async () => {
    const other = { ...ref, container: 'f' };
    agent.appendLog(other, ['first']);
    let appended = false;
    const answer = await get('/containerLogs/ns/p/f?follow=true', client, () => {
      if (appended) return;
      appended = true;
      agent.appendLog(other, ['second']);
      setTimeout(() => agent.endLog(other), 10);
    });
    assert.deepEqual(answer, { status: 200, body: 'first\nsecond\n' });
  });

  test('a client certificate from another CA is refused at the handshake', async () => {
    const stranger = await createCertificateAuthority({ commonName: 'stranger' });
    const cert = await issueCertificate(stranger, { commonName: 'x', usages: ['client'] });
    const before = agent.calls.length;
    await assert.rejects(get('/containerLogs/ns/p/c', cert));
    assert.equal(agent.calls.length, before);
  });
});
