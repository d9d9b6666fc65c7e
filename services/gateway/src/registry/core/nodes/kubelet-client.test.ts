// The node agents' client: the per-container URL exec, attach and log share, and an agent that
// cannot be reached answered with Go's dial error naming its address, as upstream answers each:
// 500 for a GET (pods/log, LogREST) and an upgrade (pods/exec, UpgradeAwareHandler), 503 for a
// proxied request (nodes/proxy, apimachinery's proxy Transport).
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { StatusError } from '@orch/apimachinery/errors';
import { attachLocation, podAttachOptionsFrom } from '../pods/attach-rest.js';
import { execLocation, podExecOptionsFrom } from '../pods/exec-rest.js';
import { KubeletClient, agentUrl } from './kubelet-client.js';

/** A port that was just free on 127.0.0.1: a server listened on it and closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('agentUrl', () => {
  test('endpoint, namespace, pod and container escaped; an IPv6 host in brackets', () => {
    assert.equal(
      agentUrl('exec', '::1', 10250, 'ns', 'p/x', 'c').href,
      'https://[::1]:10250/exec/ns/p%2Fx/c'
    );
  });
  test('exec carries the stream flags as the agent reads them', () => {
    const o = podExecOptionsFrom(new URLSearchParams('command=sh&command=-c&stdin=1&stdout=1'));
    assert.equal(
      execLocation('10.0.0.1', 10250, 'ns', 'p', 'c', o).href,
      'https://10.0.0.1:10250/exec/ns/p/c?command=sh&command=-c&input=1&output=1'
    );
  });
});

test('attach carries the stream flags and no command', () => {
  const o = podAttachOptionsFrom(new URLSearchParams('command=x&stdin=true&stderr=1&tty=1'));
  assert.deepEqual(o, { stdin: true, stdout: false, stderr: true, tty: true, container: '' });
  assert.equal(
    attachLocation({ hostname: 'n', port: 1 }, 'ns', 'p', 'c', o).href,
    'https://n:1/attach/ns/p/c?input=1&error=1&tty=1'
  );
});

describe('an agent that cannot be reached', () => {
  const client = new KubeletClient({
    certFile: '',
    keyFile: '',
    caFile: '',
    preferredAddressTypes: ['InternalIP'],
    timeoutMs: 5_000,
  });
  after(() => client.close());

  const failure = async (p: Promise<unknown>): Promise<StatusError> => {
    try {
      await p;
    } catch (err) {
      assert.ok(err instanceof StatusError);
      return err;
    }
    assert.fail('the request succeeded');
  };

  test('GET and upgrade 500, proxy 503 ServiceUnavailable, with Go’s dial error naming it', async () => {
    const port = await closedPort();
    const base = `https://127.0.0.1:${port}`;
    const dial = `dial tcp 127.0.0.1:${port}: connect: connection refused`;
    const logs = new URL(`${base}/containerLogs/ns/p/c`);
    const cases: [Promise<unknown>, number, string][] = [
      [client.get(logs), 500, `Get "${logs.href}": ${dial}`],
      [
        client.proxy('GET', new URL(`${base}/healthz`), {}, undefined),
        503,
        `error trying to reach service: ${dial}`,
      ],
      [client.upgrade(new URL(`${base}/exec/ns/p/c`), {}), 500, `error dialing backend: ${dial}`],
    ];
    for (const [p, code, message] of cases) {
      const err = await failure(p);
      assert.equal(err.code, code, message);
      assert.equal(err.status.reason, code === 503 ? 'ServiceUnavailable' : undefined, message);
      assert.equal(err.message, message);
    }
  });
});
