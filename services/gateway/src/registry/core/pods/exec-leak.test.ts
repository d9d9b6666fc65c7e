// No socket outlives its exec: 1,000 exec round trips (WebSocket, v5.channel.k8s.io, eight at a
// time, each running `echo` on the test node agent) through a gateway of the test's own, then the
// sockets counted: the gateway process's open sockets (its /proc fd table) back to where they
// were before, no connection open at the agent, every session ended by its process's exit.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { Agent } from 'node:https';
import { createSecureContext } from 'node:tls';
import { after, before, test } from 'node:test';
import { WebSocket } from 'ws';
import { sharedSuite, startGateway, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { startClusterNodeAgent } from '@orch/testing/node-agent';
import type { NodeAgent } from '@orch/testing/node-agent';

const suffix = Date.now().toString(36);
const ns = `exec-leak-${suffix}`;
const node = `exec-leak-${suffix}`;
const roundTrips = 1000;
const inFlight = 8;
let shared: Suite;
let gw: Suite;
let agent: NodeAgent;

before(async () => {
  shared = await sharedSuite();
  gw = await startGateway(shared);
  agent = await startClusterNodeAgent(shared.pki.dir);
  const must = async (method: string, path: string, body: unknown) => {
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    const r = await gw.request(0, method, path, body, method === 'PATCH' ? merge : {});
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  };
  await must('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await must('POST', '/api/v1/nodes', { metadata: { name: node } });
  await must('PATCH', `/api/v1/nodes/${node}/status`, {
    status: {
      addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: agent.port } },
    },
  });
  await must('POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'p' },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox:1.36' }] },
  });
});

after(async () => {
  await gw?.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await gw?.request(0, 'DELETE', `/api/v1/nodes/${node}`);
  await gw?.stop();
  await agent?.stop();
});

function openSockets(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // closed while listed
    }
  }
  return n;
}

/**
 * The admin's TLS, made once (a context per connection parsed the key again each time), and
 * TLS sessions resumed (each exec is a new connection; its handshake need not be a full one).
 */
let asAdmin: Agent | undefined;

/** One exec of `echo hi` over WebSocket: its stdout and the Status of the error channel. */
function execOnce(): Promise<{ out: string; status: string }> {
  const admin = shared.pki.file('admin');
  asAdmin ??= new Agent({
    maxCachedSessions: 16,
    secureContext: createSecureContext({
      ca: shared.pki.caCertPem,
      cert: readFileSync(admin.certFile),
      key: readFileSync(admin.keyFile),
    }),
  });
  const url = new URL(gw.gateways[0]!);
  url.protocol = 'wss:';
  url.pathname = `/api/v1/namespaces/${ns}/pods/p/exec`;
  url.search = 'command=echo&command=hi&stdout=true';
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['v5.channel.k8s.io'], {
      agent: asAdmin,
    });
    let out = '';
    let status = '';
    ws.on('message', (data: Buffer) => {
      if (data[0] === 1) out += data.subarray(1).toString();
      if (data[0] === 3) status = String(JSON.parse(data.subarray(1).toString()).status);
    });
    ws.once('error', reject);
    ws.once('close', () => resolve({ out, status }));
  });
}

test(`${roundTrips} exec round trips leave no socket open at the gateway or the agent`, async () => {
  const pid = gw.pid(gw.layout.processNames.at(-1)!); // startGateway's own gateway is named last
  for (let i = 0; i < 8; i++) await execOnce(); // connections to storage and the agent made
  const completed = agent.exec.completed;
  const before = openSockets(pid);
  let next = 0;
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < roundTrips) {
        next++;
        const r = await execOnce();
        if (r.out !== 'hi\n' || r.status !== 'Success') failures.push(JSON.stringify(r));
      }
    })
  );
  assert.deepEqual(failures, [], 'every round trip printed hi and ended in Success');
  await waitFor(
    'the gateway holds no more sockets than before',
    async () => openSockets(pid) <= before,
    { timeoutMs: 15_000 }
  );
  await waitFor('no connection open at the agent', async () => agent.openConnections() === 0, {
    timeoutMs: 15_000,
  });
  assert.equal(agent.exec.open, 0);
  assert.equal(agent.exec.abandoned, 0);
  assert.equal(agent.exec.completed - completed, roundTrips);
});
