// `kubectl exec` through the gateway to the test node agent over WebSocket (kubectl 1.32 speaks
// v5.channel.k8s.io first): the gateway relays the upgrade with its client certificate and
// pipes the stream; the agent runs a real local process. Output, stdin with its half-close, the
// exit code of a failing command, the same over SPDY (kubectl's fallback, relayed by the gateway
// as it came), upstream's errors, and an agent that cannot be reached; `kubectl
// exec -it` from a terminal (kubectl runs under util-linux `script`, as a user at a terminal would
// run it); `kubectl attach -i` to a process the agent runs as the container.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reviewResponse, sharedSuite, startWebhookServer, waitFor } from '@orch/testing';
import type { Suite, WebhookCall, WebhookServer } from '@orch/testing';
import { startClusterNodeAgent, startNodeAgent } from '@orch/testing/node-agent';
import type { NodeAgent } from '@orch/testing/node-agent';
import { kubectlFor, runKubectl } from './run-kubectl.js';

let suite: Suite;
let agent: NodeAgent;
let hooks: WebhookServer;
const dir = mkdtempSync(join(tmpdir(), 'orch-exec-'));
const ns = 'exec-e2e';
const node = 'exec-e2e-node';
const deadNode = 'exec-e2e-dead-node';
const { kubectl, ok } = kubectlFor(() => suite.kubeconfigs[0]!, join(dir, 'cache'));
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

type Review = { request?: { object?: { command?: string[] } } };

/** The webhook: refuses an exec of `forbidden-command`. */
function refuseExec(call: WebhookCall) {
  const command = (call.body as Review).request?.object?.command ?? [];
  return {
    body: reviewResponse(
      call.body,
      command[0] === 'forbidden-command'
        ? { allowed: false, status: { message: 'forbidden-command is not run' } }
        : { allowed: true }
    ),
  };
}

before(async () => {
  suite = await sharedSuite();
  const caPem = readFileSync(join(suite.layout.pkiDir, 'ca.crt'), 'utf8');
  agent = await startClusterNodeAgent(suite.layout.pkiDir);
  await ok(['create', 'namespace', ns]);
  await ok(['label', 'namespace', ns, 'e2e=exec']);
  hooks = await startWebhookServer(refuseExec);
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
  await kubectl(['delete', 'validatingwebhookconfiguration', 'exec-e2e', '--wait=false']);
  await agent?.stop();
  await hooks?.stop();
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

test('kubectl exec over SPDY (its fallback): stdin, stdout, stderr and the exit code relayed', async () => {
  const spdy = { ...process.env, KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' };
  const run = (args: string[], input?: string) =>
    runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input, spdy);
  const input = 'over\nspdy\n';
  const cat = await run(['exec', '-i', '-n', ns, 'one', '--', 'cat'], input);
  assert.equal(cat.code, 0, cat.stderr);
  assert.equal(cat.stdout, input);
  const fail = await run(['exec', '-n', ns, 'one', '--', 'sh', '-c', 'echo oops >&2; exit 3']);
  assert.equal(fail.code, 3, fail.stderr);
  assert.match(fail.stderr, /oops/);
  const call = agent.calls.findLast((c) => c.path === `/exec/${ns}/one/c`);
  assert.equal(call?.method, 'POST', 'SPDY: a POST upgrade, relayed as it came');
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

test('kubectl exec -it: a shell on a terminal, typed input, the terminal size, the exit code', async () => {
  const resizes = agent.exec.resizes.length;
  const cmd = [
    'kubectl',
    `--kubeconfig=${suite.kubeconfigs[0]!}`,
    `--cache-dir=${join(dir, 'cache')}`,
    ...['exec', '-it', '-n', ns, 'one', '--', 'sh'],
  ].join(' ');
  // The outer terminal has a size, so kubectl sends it on the resize channel.
  const child = spawn('script', ['-qfec', `stty cols 100 rows 40; ${cmd}`, '/dev/null']);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  // The remote terminal echoes what is typed; only the shell's own answer reads `is a tty`.
  child.stdin.write('tty -s && echo "is a $(echo tty)"\nexit 4\n');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  child.stdin.destroy();
  assert.match(out, /is a tty/, out);
  assert.equal(code, 4, `kubectl's exit code is the shell's: ${out}`);
  assert.ok(
    agent.exec.resizes.slice(resizes).some((r) => r.Width === 100 && r.Height === 40),
    `the terminal size reached the agent: ${JSON.stringify(agent.exec.resizes.slice(resizes))}`
  );
  const call = agent.calls.findLast((c) => c.path === `/exec/${ns}/one/c`);
  assert.ok(call, 'the agent saw the exec');
});

test('kubectl attach -i: stdin to the running container, its output back, its exit ends the session', async () => {
  agent.startContainer({ namespace: ns, pod: 'two', container: 'a' }, ['cat']);
  const input = 'to the attached\ncontainer\n';
  assert.equal(await ok(['attach', '-i', '-n', ns, 'two', '-c', 'a'], input), input);
  const call = agent.calls.find((c) => c.path === `/attach/${ns}/two/a`);
  assert.ok(call, 'the agent saw the attach');
  assert.equal(call.method, 'GET', 'WebSocket: a GET upgrade');
  await waitFor('no attach session open on the agent', async () => agent.attached() === 0, {
    timeoutMs: 10_000,
  });
  const r = await kubectl(['attach', '-n', ns, 'two', '-c', 'b']);
  assert.notEqual(r.code, 0, 'no running container b: the agent refused the attach');
});

test('kubectl attach -i over SPDY (its fallback): stdin to the container, its output back', async () => {
  agent.startContainer({ namespace: ns, pod: 'two', container: 'b' }, ['cat']);
  const spdy = { ...process.env, KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' };
  const input = 'attached\nover spdy\n';
  const r = await runKubectl(
    suite.kubeconfigs[0]!,
    join(dir, 'cache'),
    ['attach', '-i', '-n', ns, 'two', '-c', 'b'],
    input,
    spdy
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, input);
  const call = agent.calls.findLast((c) => c.path === `/attach/${ns}/two/b`);
  assert.equal(call?.method, 'POST', 'SPDY: a POST upgrade');
  await waitFor('no attach session open on the agent', async () => agent.attached() === 0, {
    timeoutMs: 10_000,
  });
});

test('every exec session of the agent ended with its process', async () => {
  await waitFor('no exec session open on the agent', async () => agent.exec.open === 0, {
    timeoutMs: 10_000,
  });
  assert.equal(agent.exec.abandoned, 0);
  assert.ok(agent.exec.completed >= 3);
});

test('a validating webhook for CONNECT pods/exec refuses an exec; kubectl prints the denial', async () => {
  await ok(
    ['apply', '-f', '-'],
    `apiVersion: admissionregistration.orch.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: exec-e2e}
webhooks:
- name: exec.e2e.orch.io
  clientConfig: {url: "${hooks.url('/exec')}", caBundle: ${hooks.caBundle}}
  rules:
  - {operations: [CONNECT], apiGroups: [""], apiVersions: [v1], resources: [pods/exec]}
  namespaceSelector: {matchLabels: {e2e: exec}}
  sideEffects: None
  admissionReviewVersions: [v1]
`
  );
  let stderr = '';
  // The configuration reaches admission through a watch: wait until the webhook is called.
  await waitFor(
    'the webhook refusing the exec',
    async () => {
      const r = await kubectl(['exec', '-n', ns, 'one', '--', 'forbidden-command']);
      stderr = r.stderr;
      return r.code !== 0 && /denied the request/.test(r.stderr);
    },
    { timeoutMs: 20_000, intervalMs: 200 }
  );
  assert.match(
    stderr,
    /admission webhook "exec\.e2e\.orch\.io" denied the request: forbidden-command is not run/
  );
  assert.equal(await ok(['exec', '-n', ns, 'one', '--', 'echo', 'allowed']), 'allowed\n');
  const seen = hooks.calls.map((c) => (c.body as { request?: Record<string, unknown> }).request);
  const req = seen.find((r) => r?.['operation'] === 'CONNECT');
  assert.ok(req, 'the webhook saw a CONNECT');
  assert.deepEqual(req['kind'], { group: '', version: 'v1', kind: 'PodExecOptions' });
  assert.deepEqual(req['resource'], { group: '', version: 'v1', resource: 'pods' });
  assert.equal(req['subResource'], 'exec');
});
