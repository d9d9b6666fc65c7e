// `kubectl exec` through the gateway to the test node agent over WebSocket (kubectl 1.32 speaks
// v5.channel.k8s.io first): the gateway relays the upgrade with its client certificate and
// pipes the stream; the agent runs a real local process. Output, stdin with its half-close, the
// exit code of a failing command, upstream's errors, and an agent that cannot be reached.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { startNodeAgent } from '@orch/testing/node-agent';
import type { NodeAgent } from '@orch/testing/node-agent';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
let agent: NodeAgent;
const dir = mkdtempSync(join(tmpdir(), 'orch-exec-'));
const ns = 'exec-e2e';
const node = 'exec-e2e-node';
const deadNode = 'exec-e2e-dead-node';
const kubectl = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);
const ok = async (args: string[], input?: string): Promise<string> => {
  const r = await kubectl(args, input);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
const nodeYaml = (name: string) => `apiVersion: v1
kind: Node
metadata: {name: ${name}}
`;
const nodeStatus = (port: number) =>
  JSON.stringify({
    status: {
      addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
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
  const pkiDir = suite.layout.pkiDir;
  const caPem = readFileSync(join(pkiDir, 'ca.crt'), 'utf8');
  agent = await startNodeAgent({
    clientCaPem: caPem,
    servingCa: { certPem: caPem, keyPem: readFileSync(join(pkiDir, 'ca.key'), 'utf8') },
  });
  await ok(['create', 'namespace', ns]);
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
    pod('one', node, ['c']) + pod('two', node, ['a', 'b']) + pod('gone', deadNode, ['c'])
  );
});

after(async () => {
  await kubectl(['delete', 'namespace', ns, '--wait=false']);
  await kubectl(['delete', 'node', node, deadNode, '--wait=false']);
  await agent?.stop();
});

test('kubectl exec runs the command on the agent and prints its output', async () => {
  assert.equal(await ok(['exec', '-n', ns, 'one', '--', 'echo', 'hi']), 'hi\n');
  const call = agent.calls.find((c) => c.path === `/exec/${ns}/one/c`);
  assert.ok(call, 'the agent saw the exec');
  assert.equal(call.method, 'GET', 'WebSocket: a GET upgrade');
  assert.notEqual(call.clientName, '', 'the gateway presented its client certificate');
});

test('kubectl exec -i relays stdin and its end', async () => {
  const input = 'first line\nsecond line\n';
  assert.equal(await ok(['exec', '-i', '-n', ns, 'two', '-c', 'b', '--', 'cat'], input), input);
});

test('kubectl exec exits with the exit code of the command, stderr relayed', async () => {
  const r = await kubectl(['exec', '-n', ns, 'one', '--', 'sh', '-c', 'echo oops >&2; exit 3']);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /oops/);
  assert.match(r.stderr, /command terminated with exit code 3/);
});

test('pods/exec: upstream errors for the container name and a request without upgrade', async () => {
  // kubectl picks a container itself; a raw request shows the gateway's own check.
  const raw = (pod: string, query: string) =>
    kubectl(['get', '--raw', `/api/v1/namespaces/${ns}/pods/${pod}/exec?${query}`]);
  let r = await raw('two', 'command=true&stdout=true');
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /a container name must be specified for pod two, choose one of: \[a b\]/);
  r = await raw('one', 'command=true&stdout=true');
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /Upgrade request required/);
  r = await raw('one', 'stdout=true');
  assert.match(r.stderr, /you must specify at least 1 command/);
});

test('kubectl exec to an unreachable agent: error dialing backend', async () => {
  const r = await kubectl(['exec', '-n', ns, 'gone', '--', 'true']);
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /error dialing backend: dial tcp 127\.0\.0\.1:\d+: connect: connection refused/
  );
});

test('every exec session of the agent ended with its process', async () => {
  await waitFor('no exec session open on the agent', async () => agent.exec.open === 0, {
    timeoutMs: 10_000,
  });
  assert.equal(agent.exec.abandoned, 0);
  assert.ok(agent.exec.completed >= 3);
});
