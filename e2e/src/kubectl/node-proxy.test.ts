// nodes/proxy through the gateway to the test node agent: the path after /proxy, the query and
// the body reach the agent with the gateway's client certificate and without the client's
// credentials; the answer comes back as the agent gave it; an unreachable agent is upstream's
// proxy error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { startClusterNodeAgent, startNodeAgent } from '@orch/testing/node-agent';
import type { NodeAgent } from '@orch/testing/node-agent';
import { kubectlFor } from './run-kubectl.js';

let suite: Suite;
let agent: NodeAgent;
const dir = mkdtempSync(join(tmpdir(), 'orch-node-proxy-'));
const node = 'node-proxy-e2e';
const deadNode = 'node-proxy-e2e-dead';
const { kubectl, ok } = kubectlFor(() => suite.kubeconfigs[0]!, join(dir, 'cache'));

before(async () => {
  suite = await sharedSuite();
  const caPem = readFileSync(join(suite.layout.pkiDir, 'ca.crt'), 'utf8');
  agent = await startClusterNodeAgent(suite.layout.pkiDir);
  const dead = await startNodeAgent({ clientCaPem: caPem });
  const deadPort = dead.port;
  await dead.stop();
  for (const [name, port] of [
    [node, agent.port],
    [deadNode, deadPort],
  ] as const) {
    await ok(['apply', '-f', '-'], `apiVersion: v1\nkind: Node\nmetadata: {name: ${name}}\n`);
    const status = {
      status: {
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
        daemonEndpoints: { kubeletEndpoint: { Port: port } },
      },
    };
    await ok(['patch', 'node', name, '--subresource=status', '-p', JSON.stringify(status)]);
  }
});

after(async () => {
  await kubectl(['delete', 'node', node, deadNode]);
  await agent.stop();
  await suite.stop();
});

test('GET through nodes/proxy: path and query reach the agent, its answer comes back', async () => {
  assert.equal(await ok(['get', '--raw', `/api/v1/nodes/${node}/proxy/healthz`]), 'ok');
  const echo = JSON.parse(
    await ok(['get', '--raw', `/api/v1/nodes/${node}/proxy/echo/a/b?x=1&y=2`])
  ) as Record<string, string>;
  assert.deepEqual(echo, {
    method: 'GET',
    path: '/echo/a/b',
    query: '?x=1&y=2',
    body: '',
    authorization: '',
  });
  const last = agent.calls.at(-1);
  assert.equal(last?.clientName, 'system:orch:gateway');
});

test('POST through nodes/proxy carries the body; the node name may carry the port', async () => {
  const echo = JSON.parse(
    await ok(
      ['create', '--raw', `/api/v1/nodes/${node}:${agent.port}/proxy/echo/post`, '-f', '-'],
      '{"hello":"agent"}'
    )
  ) as Record<string, string>;
  assert.equal(echo['method'], 'POST');
  assert.equal(echo['path'], '/echo/post');
  assert.equal(echo['body'], '{"hello":"agent"}');
});

test('the agent’s own 404 comes back as it is; nodes/proxy is listed in discovery', async () => {
  const r = await suite.request(0, 'GET', `/api/v1/nodes/${node}/proxy/nowhere`);
  assert.equal(r.status, 404);
  const resources = JSON.parse(await ok(['get', '--raw', '/api/v1'])) as {
    resources: { name: string; verbs: string[] }[];
  };
  assert.deepEqual(resources.resources.find((x) => x.name === 'nodes/proxy')?.verbs, [
    'create',
    'delete',
    'get',
    'patch',
    'update',
  ]);
});

test('an agent that cannot be reached: upstream’s proxy error naming the address', async () => {
  const r = await kubectl(['get', '--raw', `/api/v1/nodes/${deadNode}/proxy/healthz`]);
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /error trying to reach service: dial tcp 127\.0\.0\.1:\d+: connect: connection refused/
  );
});
