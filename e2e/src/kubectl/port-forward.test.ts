// `kubectl port-forward` through the gateway to the test node agent, followed by TCP round trips:
// kubectl 1.32 tunnels SPDY inside a WebSocket (`SPDY/3.1+portforward.k8s.io`), which the
// gateway unwraps into a SPDY upgrade to the agent, as upstream's TunnelingHandler; with
// KUBECTL_PORT_FORWARD_WEBSOCKETS=false kubectl speaks SPDY itself and the gateway relays it. The
// "pod" is a TCP echo server on loopback, where the agent dials the pod's port.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer, connect } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { startClusterNodeAgent } from '@orch/testing/node-agent';
import type { NodeAgent } from '@orch/testing/node-agent';
import { kubectlFor } from './run-kubectl.js';

let suite: Suite;
let agent: NodeAgent;
let echo: Server;
let echoPort: number;
const dir = mkdtempSync(join(tmpdir(), 'orch-port-forward-'));
const ns = 'port-forward-e2e';
const node = 'port-forward-e2e-node';
const { kubectl, ok } = kubectlFor(() => suite.kubeconfigs[0]!, join(dir, 'cache'));

before(async () => {
  suite = await sharedSuite();
  agent = await startClusterNodeAgent(suite.layout.pkiDir);
  echo = createServer((s) => s.pipe(s));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as { port: number }).port;
  await ok(['create', 'namespace', ns]);
  await ok(['apply', '-f', '-'], `apiVersion: v1\nkind: Node\nmetadata: {name: ${node}}\n`);
  const nodeStatus = {
    status: {
      addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: agent.port } },
    },
  };
  await ok(['patch', 'node', node, '--subresource=status', '-p', JSON.stringify(nodeStatus)]);
  await ok(
    ['apply', '-f', '-'],
    `apiVersion: v1
kind: Pod
metadata: {name: echo, namespace: ${ns}}
spec:
  nodeName: ${node}
  containers: [{name: echo, image: "busybox:1.36", ports: [{containerPort: ${echoPort}}]}]
`
  );
  // kubectl forwards only to a running pod.
  const running = JSON.stringify({ status: { phase: 'Running' } });
  await ok(['patch', 'pod', '-n', ns, 'echo', '--subresource=status', '-p', running]);
});

after(async () => {
  await kubectl(['delete', 'namespace', ns, '--wait=false']);
  await kubectl(['delete', 'node', node, '--wait=false']);
  await agent?.stop();
  echo?.close();
});

/** `kubectl port-forward` running, and the local port it printed. */
async function portForward(
  remote: number,
  env: NodeJS.ProcessEnv = {}
): Promise<{ child: ChildProcess; local: number; stderr: () => string }> {
  const child = spawn(
    'kubectl',
    [
      `--kubeconfig=${suite.kubeconfigs[0]!}`,
      `--cache-dir=${join(dir, 'cache')}`,
      'port-forward',
      '-n',
      ns,
      'pod/echo',
      `:${remote}`,
      '--address=127.0.0.1',
      '-v=4', // client-go's FallbackDialer says at level 4 when it falls back to SPDY
    ],
    { env: { ...process.env, ...env } }
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const local = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no forwarding line: ${stdout} ${stderr}`)),
      20_000
    );
    const check = (): void => {
      const m = /Forwarding from 127\.0\.0\.1:(\d+) -> (\d+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kubectl port-forward exited (${code}): ${stderr}`));
    });
  });
  return { child, local, stderr: () => stderr };
}

/**
 * Connects to the forwarded port, writes `text`, half-closes, and reads the answer to its end;
 * with `stallMs`, reads nothing for that long first (a slow reader).
 */
function roundTrip(port: number, text: string, stallMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    if (stallMs > 0) {
      s.pause();
      setTimeout(() => s.resume(), stallMs);
    }
    s.on('data', (c: Buffer) => (got += c.toString()));
    s.once('end', () => resolve(got));
    s.once('error', reject);
    s.setTimeout(15_000, () => s.destroy(new Error(`no answer; so far ${JSON.stringify(got)}`)));
    s.end(text);
  });
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
}

test('kubectl port-forward (SPDY tunnelled in WebSocket): TCP round trips to the pod', async () => {
  const before = agent.portForwards.completed;
  const pf = await portForward(echoPort);
  try {
    assert.equal(
      await roundTrip(pf.local, 'hello through the tunnel\n'),
      'hello through the tunnel\n'
    );
    // A second connection over the same tunnel, larger than one SPDY frame of either side.
    const big = 'x'.repeat(100_000) + '\n';
    assert.equal(await roundTrip(pf.local, big), big);
    // 8 MB to a reader that takes nothing for 2 s: the tunnel waits for it, nothing is lost.
    const huge = 'y'.repeat(8 << 20);
    const back = await roundTrip(pf.local, huge, 2000);
    assert.equal(back.length, huge.length);
    assert.ok(back === huge, 'the same bytes came back');
  } finally {
    await stopped(pf.child);
  }
  assert.match(pf.stderr(), /negotiated protocol: portforward\.k8s\.io/, 'the tunnel was set up');
  assert.doesNotMatch(pf.stderr(), /fallback to secondary dialer/, 'kubectl kept the tunnel');
  const call = agent.calls.find((c) => c.path === `/portForward/${ns}/echo`);
  assert.ok(call, 'the agent saw the port-forward');
  assert.equal(call.method, 'POST', 'the gateway upgraded to the agent with SPDY');
  await waitFor(
    'the forwarded connections ended at the agent',
    async () => agent.portForwards.completed >= before + 3 && agent.portForwards.open === 0,
    { timeoutMs: 10_000 }
  );
});

test('kubectl port-forward over SPDY (its fallback): the gateway relays the upgrade', async () => {
  const pf = await portForward(echoPort, { KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' });
  try {
    assert.equal(await roundTrip(pf.local, 'hello over spdy\n'), 'hello over spdy\n');
  } finally {
    await stopped(pf.child);
  }
});

test('kubectl port-forward to a port nothing listens on: the agent error reaches kubectl', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const deadPort = (closed.address() as { port: number }).port;
  await new Promise((r) => closed.close(r));
  const pf = await portForward(deadPort);
  try {
    assert.equal(await roundTrip(pf.local, 'anyone?\n'), '');
    await waitFor(
      'kubectl prints the agent error',
      async () =>
        /an error occurred forwarding \d+ -> \d+: error forwarding port \d+ to pod/.test(
          pf.stderr()
        ),
      { timeoutMs: 10_000 }
    );
  } finally {
    await stopped(pf.child);
  }
});

test('a tunnelling WebSocket handshake without a key: 400, and the agent connection is closed', async () => {
  const admin = suite.pki.file('admin');
  const url = new URL(`${suite.gateways[0]!}/api/v1/namespaces/${ns}/pods/echo/portforward`);
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpsRequest(url, {
      method: 'GET',
      ca: suite.pki.caCertPem,
      cert: readFileSync(admin.certFile),
      key: readFileSync(admin.keyFile),
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Protocol': 'SPDY/3.1+portforward.k8s.io',
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('upgrade', () => reject(new Error('upgraded without a key')));
    req.on('error', reject);
    req.end();
  });
  assert.equal(status, 400);
  await waitFor('the agent has no connection left', async () => agent.openConnections() === 0, {
    timeoutMs: 10_000,
  });
});

test('pods/portforward without an upgrade: 400 Upgrade request required', async () => {
  const r = await kubectl(['get', '--raw', `/api/v1/namespaces/${ns}/pods/echo/portforward`]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /Upgrade request required/);
});
