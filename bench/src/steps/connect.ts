// exec and logs: pods/exec round trips (`echo hi` over WebSocket v5.channel.k8s.io, a real
// process each) and pods/log throughput (a 4 MB log) through a gateway, beside the same against
// the test node agent directly with the gateway's own client certificate: what the gateway's
// connect path (authentication, authorization, admission of CONNECT, the relay) adds.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { request as undiciRequest } from 'undici';
import { WebSocket } from 'ws';
import { startNodeAgent } from '@orch/testing/node-agent';
import type { NodeAgent } from '@orch/testing/node-agent';
import type { ClientTls } from '../client.js';
import { f } from '../report.js';
import { pct, runFor } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';

export const connect: BenchStep = { name: 'exec and logs', run: benchConnect };

const ns = 'bench-connect';
const node = 'bench-connect-node';
const ref = { namespace: ns, pod: 'agent-pod', container: 'c' };
const logLines = 20_000;
const line = 'x'.repeat(199);

/** One exec of `echo hi`: resolves once stdout said `hi` and the status channel reported success. */
function execOnce(url: string, tls: ClientTls): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['v5.channel.k8s.io'], { ...tls });
    let out = '';
    let status = '';
    ws.on('message', (data: Buffer) => {
      if (data[0] === 1) out += data.subarray(1).toString('utf8');
      if (data[0] === 3) status += data.subarray(1).toString('utf8');
    });
    ws.on('error', reject);
    ws.on('close', () => {
      if (out === 'hi\n' && /"status":"Success"/.test(status)) resolve();
      else reject(new Error(`exec: stdout ${JSON.stringify(out)}, status ${status}`));
    });
  });
}

/** The whole log once: its bytes. */
async function readLog(url: string, tls: ClientTls): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ...tls, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(bytes) : reject(new Error(`log: ${res.statusCode}`))
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function benchConnect(ctx: BenchContext): Promise<void> {
  const gw = ctx.gateways[0]!;
  const { mustCall, createNamespace } = ctx.client;
  const { rows, notes } = ctx.report;
  const caPem = readFileSync(ctx.clusterCa.certFile, 'utf8');
  const agent: NodeAgent = await startNodeAgent({
    clientCaPem: caPem,
    servingCa: { certPem: caPem, keyPem: readFileSync(ctx.clusterCa.keyFile, 'utf8') },
  });
  try {
    console.log(
      '[connect] exec round trips and log reads through a gateway and directly to the agent...'
    );
    await mustCall(`${gw.url}/api/v1/nodes`, 'POST', { metadata: { name: node } }, [201, 409]);
    await patchNodeStatus(ctx, gw.url, agent.port);
    await createNamespace(gw, ns);
    await mustCall(
      `${gw.url}/api/v1/namespaces/${ns}/pods`,
      'POST',
      {
        metadata: { name: ref.pod },
        spec: { nodeName: node, containers: [{ name: ref.container, image: 'bench' }] },
      },
      [201, 409]
    );
    const gatewayTls = ctx.client.tls;
    const agentTls: ClientTls = {
      ca: Buffer.from(caPem),
      cert: readFileSync(ctx.servingFiles.certFile),
      key: readFileSync(ctx.servingFiles.keyFile),
    };
    const wss = gw.url.replace(/^https:/, 'wss:');
    const viaGateway = `${wss}/api/v1/namespaces/${ns}/pods/${ref.pod}/exec?command=echo&command=hi&stdout=true&container=${ref.container}`;
    const direct = `wss://127.0.0.1:${agent.port}/exec/${ns}/${ref.pod}/${ref.container}?command=echo&command=hi&output=1`;
    await execOnce(viaGateway, gatewayTls);
    await execOnce(direct, agentTls);
    const execs = [
      await runFor(4000, 4, () => execOnce(viaGateway, gatewayTls)),
      await runFor(4000, 4, () => execOnce(direct, agentTls)),
    ] as const;
    const [g, d] = execs.map((r) => r.ok / r.seconds);
    rows.push({
      metric: 'exec round trips/s (4 in flight)',
      orch: f(g!, 0),
      baseline: `${f(d!, 0)} (agent direct)`,
      ratio: f(g! / d!, 2),
      target: '-',
      pass: undefined,
    });
    rows.push({
      metric: 'exec round trip p50 ms',
      orch: f(pct(execs[0].latencies, 0.5), 1),
      baseline: `${f(pct(execs[1].latencies, 0.5), 1)} (agent direct)`,
      ratio: f(pct(execs[0].latencies, 0.5) / pct(execs[1].latencies, 0.5), 2),
      target: '-',
      pass: undefined,
    });
    for (const r of execs)
      if (r.errors) notes.push(`exec errors: ${r.errors} (${r.firstError ?? ''})`);

    agent.appendLog(
      ref,
      Array.from({ length: logLines }, () => line)
    );
    const logVia = `${gw.url}/api/v1/namespaces/${ns}/pods/${ref.pod}/log?container=${ref.container}`;
    const logDirect = `https://127.0.0.1:${agent.port}/containerLogs/${ns}/${ref.pod}/${ref.container}`;
    const throughput = async (url: string, tls: ClientTls): Promise<number> => {
      await readLog(url, tls);
      let bytes = 0;
      const started = performance.now();
      for (let i = 0; i < 5; i++) bytes += await readLog(url, tls);
      return bytes / 1024 / 1024 / ((performance.now() - started) / 1000);
    };
    const viaMb = await throughput(logVia, gatewayTls);
    const directMb = await throughput(logDirect, agentTls);
    rows.push({
      metric: `pods/log MB/s (${f((logLines * 200) / 1024 / 1024, 1)} MB log)`,
      orch: f(viaMb, 0),
      baseline: `${f(directMb, 0)} (agent direct)`,
      ratio: f(viaMb / directMb, 2),
      target: '-',
      pass: undefined,
    });
  } finally {
    await agent.stop();
    await ctx.client.call(`${gw.url}/api/v1/namespaces/${ns}`, 'DELETE');
    await ctx.client.call(`${gw.url}/api/v1/nodes/${node}`, 'DELETE');
  }
}

/** The node's address and agent port, as a node agent reports them. */
async function patchNodeStatus(ctx: BenchContext, url: string, port: number): Promise<void> {
  const res = await undiciRequest(`${url}/api/v1/nodes/${node}/status`, {
    method: 'PATCH',
    dispatcher: ctx.client.agent,
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({
      status: {
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
        daemonEndpoints: { kubeletEndpoint: { Port: port } },
      },
    }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`node status: ${res.statusCode} ${text}`);
}
