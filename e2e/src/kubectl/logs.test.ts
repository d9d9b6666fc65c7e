// `kubectl logs` through the gateway to the test node agent, a real HTTPS server that trusts
// the gateway's --kubelet-client-certificate and serves with a certificate of the cluster CA
// (the gateway's --kubelet-certificate-authority): the whole log, -c, --tail, --timestamps,
// --previous, -f ending when the agent ends the log, upstream's errors for the container name,
// an agent that cannot be reached, a client that leaves, a follow cut mid-stream, and a slow
// reader.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { startClusterNodeAgent, startNodeAgent } from '@orch/testing/node-agent';
import type { NodeAgent } from '@orch/testing/node-agent';
import { kubectlFor } from './run-kubectl.js';

let suite: Suite;
let agent: NodeAgent;
const dir = mkdtempSync(join(tmpdir(), 'orch-logs-'));
const ns = 'logs-e2e';
const node = 'logs-e2e-node';
const deadNode = 'logs-e2e-dead-node';
const { kubectl, ok } = kubectlFor(() => suite.kubeconfigs[0]!, join(dir, 'cache'));
const nodeYaml = (name: string) => `apiVersion: v1
kind: Node
metadata: {name: ${name}}
`;
const nodeStatus = (port: number) =>
  JSON.stringify({
    status: {
      addresses: [
        { type: 'ExternalIP', address: '192.0.2.1' },
        { type: 'InternalIP', address: '127.0.0.1' },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: port } },
    },
  });
const pod = (name: string, nodeName: string, containers: string[]) => `---
apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: ${ns}}
spec:
  nodeName: ${nodeName}
  containers: [${containers.map((c) => `{name: ${c}, image: "busybox:1.36"}`).join(', ')}]
`;

before(async () => {
  suite = await sharedSuite();
  const caPem = readFileSync(join(suite.layout.pkiDir, 'ca.crt'), 'utf8');
  agent = await startClusterNodeAgent(suite.layout.pkiDir);
  await ok(['create', 'namespace', ns]);
  // A port nothing listens on: the agent of the dead node is unreachable.
  const dead = await startNodeAgent({ clientCaPem: caPem });
  const deadPort = dead.port;
  await dead.stop();
  for (const [name, port] of [
    [node, agent.port],
    [deadNode, deadPort],
  ] as const) {
    await ok(['apply', '-f', '-'], nodeYaml(name));
    await ok(['patch', 'node', name, '--subresource=status', '-p', nodeStatus(port)]);
  }
  await ok(
    ['apply', '-f', '-'],
    pod('one', node, ['c']) +
      pod('two', node, ['a', 'b']) +
      pod('three', node, ['slow']) +
      pod('gone', deadNode, ['c'])
  );
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  agent.appendLog(
    { namespace: ns, pod: 'one', container: 'c' },
    ['alpha', 'beta', 'gamma'].map((text, i) => ({ time: new Date(t0 + i * 1000), text }))
  );
  agent.appendLog({ namespace: ns, pod: 'one', container: 'c' }, ['crashed'], true);
  agent.appendLog({ namespace: ns, pod: 'two', container: 'b' }, ['from b']);
});

after(async () => {
  await kubectl(['delete', 'namespace', ns, '--wait=false']);
  await kubectl(['delete', 'node', node, deadNode]);
  await agent.stop();
  await suite.stop();
});

test('kubectl logs: the whole log, --tail, --timestamps, --previous, -c', async () => {
  assert.equal(await ok(['logs', '-n', ns, 'one']), 'alpha\nbeta\ngamma\n');
  assert.equal(await ok(['logs', '-n', ns, 'one', '--tail=1']), 'gamma\n');
  assert.equal(
    await ok(['logs', '-n', ns, 'one', '--tail=2', '--timestamps']),
    '2026-01-01T00:00:01.000000000Z beta\n2026-01-01T00:00:02.000000000Z gamma\n'
  );
  assert.equal(await ok(['logs', '-n', ns, 'one', '--previous']), 'crashed\n');
  assert.equal(await ok(['logs', '-n', ns, 'two', '-c', 'b']), 'from b\n');
  assert.equal(await ok(['logs', '-n', ns, 'one', '--limit-bytes=8']), 'alpha\nbe');
  // The agent saw the gateway's client certificate.
  assert.ok(agent.calls.some((c) => c.clientName === 'system:orch:gateway'));
});

test('kubectl logs: upstream errors for the container name and the options', async () => {
  const many = await kubectl(['get', '--raw', `/api/v1/namespaces/${ns}/pods/two/log`]);
  assert.notEqual(many.code, 0);
  assert.match(
    many.stderr,
    /a container name must be specified for pod two, choose one of: \[a b\]/
  );
  const wrong = await kubectl(['logs', '-n', ns, 'one', '-c', 'nope']);
  assert.notEqual(wrong.code, 0);
  assert.match(wrong.stderr, /container nope is not valid for pod one/);
  const negative = await suite.request(
    0,
    'GET',
    `/api/v1/namespaces/${ns}/pods/one/log?tailLines=-1`
  );
  assert.equal(negative.status, 422);
  assert.match(
    JSON.stringify(negative.body),
    /PodLogOptions \\"one\\" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0/
  );
});

test('kubectl logs: an agent that cannot be reached is an error naming it', async () => {
  const r = await kubectl(['logs', '-n', ns, 'gone']);
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /Get "https:\/\/127\.0\.0\.1:\d+\/containerLogs\/logs-e2e\/gone\/c": dial tcp 127\.0\.0\.1:\d+: connect: connection refused/
  );
});

test('kubectl logs -f streams lines as the agent sends them and ends when the agent ends the log', async () => {
  const ref = { namespace: ns, pod: 'two', container: 'a' };
  agent.appendLog(ref, ['first']);
  const child = spawn('kubectl', [
    `--kubeconfig=${suite.kubeconfigs[0]!}`,
    `--cache-dir=${join(dir, 'cache')}`,
    'logs',
    '-f',
    '-n',
    ns,
    'two',
    '-c',
    'a',
  ]);
  let out = '';
  const sawFirst = new Promise<void>((resolve) => {
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('first\n')) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await sawFirst;
  agent.appendLog(ref, ['second']);
  agent.endLog(ref);
  const code = await exited;
  assert.equal(code, 0);
  assert.equal(out, 'first\nsecond\n');
  assert.equal(agent.openStreams(), 0);
});

test('a slow reader gets the whole log: the relay waits for it, nothing dropped or cut', async () => {
  const lines = Array.from({ length: 100_000 }, (_, i) => `line ${i} ${'x'.repeat(60)}`); // 7 MB: more than the sockets on the way hold
  agent.appendLog({ namespace: ns, pod: 'three', container: 'slow' }, lines);
  const child = spawn('kubectl', [
    `--kubeconfig=${suite.kubeconfigs[0]!}`,
    `--cache-dir=${join(dir, 'cache')}`,
    ...['logs', '-n', ns, 'three', '-c', 'slow'],
  ]);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  // Nobody reads kubectl's output for 2 s: its pipe fills, kubectl stops reading the answer, and
  // the gateway's socket to it and the agent's to the gateway back up.
  await new Promise((r) => setTimeout(r, 2000));
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  assert.equal(await exited, 0);
  assert.equal(out.length, lines.join('\n').length + 1, 'every byte arrived');
  assert.equal(out, `${lines.join('\n')}\n`);
});

const until = (what: string, ok: () => boolean): Promise<void> =>
  waitFor(what, () => Promise.resolve(ok()), { timeoutMs: 10_000 });

/** `kubectl logs -f` of one container, its output collected. */
function follow(pod: string, container: string) {
  const child = spawn('kubectl', [
    `--kubeconfig=${suite.kubeconfigs[0]!}`,
    `--cache-dir=${join(dir, 'cache')}`,
    'logs',
    '-f',
    '-n',
    ns,
    pod,
    '-c',
    container,
  ]);
  const state = { out: '', err: '' };
  child.stdout.on('data', (b: Buffer) => (state.out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (state.err += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, state, exited };
}

test('a client that leaves a follow closes the gateway’s connection to the agent (counted 20 times)', async () => {
  for (let i = 0; i < 20; i++) {
    const f = follow('two', 'b');
    await until('the first line', () => f.state.out.includes('from b\n'));
    assert.equal(agent.openStreams(), 1);
    f.child.kill('SIGKILL');
    await f.exited;
    await until('the agent connection closed', () => agent.openStreams() === 0);
  }
  assert.equal(agent.openStreams(), 0);
});

test('an agent that cuts a follow mid-stream ends the answer where it stopped', async () => {
  const ref = { namespace: ns, pod: 'one', container: 'c' };
  const f = follow('one', 'c');
  await until('the log so far', () => f.state.out.includes('gamma\n'));
  agent.appendLog(ref, ['delta']);
  await until('the appended line', () => f.state.out.includes('delta\n'));
  agent.cutLog(ref);
  assert.equal(await f.exited, 0, f.state.err);
  assert.equal(f.state.out, 'alpha\nbeta\ngamma\ndelta\n');
});
