// representations: JSON, the binary envelope and Tables side by side, for a realistic pod and
// a list of 500.
import { decodeEnvelope } from '@orch/apimachinery/protobuf';
import { realisticPod } from '@orch/apimachinery/testdata';
import { request } from 'undici';
import { f } from '../report.js';
import { runFor } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';

export const representations: BenchStep = { name: 'representations', run: benchRepresentations };

async function benchRepresentations(ctx: BenchContext): Promise<void> {
  const { gateways: gws } = ctx;
  const { agent, createNamespace, mustCall } = ctx.client;
  const { rows, notes } = ctx.report;
  const ns = 'bench-repr';
  const gw = gws[0]!;
  const n = 500;
  await createNamespace(gw, ns);
  // What the pod names must exist, as in a cluster: its service account, priority class and
  // runtime class (the ServiceAccount, Priority and RuntimeClass admission plugins refuse a pod
  // naming a missing one). The priority and overhead are the plugins' to fill in, not the
  // client's.
  const { spec: podSpec } = realisticPod;
  for (const [path, body] of [
    [
      `/api/v1/namespaces/${ns}/serviceaccounts`,
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: podSpec.serviceAccountName } },
    ],
    [
      '/apis/scheduling.orch.io/v1/priorityclasses',
      {
        apiVersion: 'scheduling.orch.io/v1',
        kind: 'PriorityClass',
        metadata: { name: podSpec.priorityClassName },
        value: podSpec.priority,
      },
    ],
    [
      '/apis/node.orch.io/v1/runtimeclasses',
      {
        apiVersion: 'node.orch.io/v1',
        kind: 'RuntimeClass',
        metadata: { name: podSpec.runtimeClassName },
        handler: 'runsc',
        overhead: { podFixed: podSpec.overhead },
      },
    ],
  ] as const)
    await mustCall(`${gw.url}${path}`, 'POST', body, [200, 201, 409]);
  console.log(`[4] representations: creating ${n} realistic pods...`);
  const { metadata, status: _status, spec: realisticSpec, ...rest } = realisticPod;
  const { priority: _priority, overhead: _overhead, ...spec } = realisticSpec;
  for (let i = 0; i < n; i += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, j) =>
        mustCall(`${gw.url}/api/v1/namespaces/${ns}/pods`, 'POST', {
          ...rest,
          spec,
          metadata: {
            name: `pod-${String(i + j).padStart(4, '0')}`,
            labels: metadata.labels,
            annotations: metadata.annotations,
          },
        })
      )
    );
  }
  const kinds: [string, string, (b: Buffer) => unknown][] = [
    ['JSON', 'application/json', (b) => JSON.parse(b.toString('utf8'))],
    ['binary', 'application/vnd.orch.protobuf', (b) => decodeEnvelope(b)],
    [
      'Table',
      'application/json;as=Table;g=meta.orch.io;v=v1',
      (b) => JSON.parse(b.toString('utf8')),
    ],
  ];
  const measure = async (
    path: string,
    accept: string,
    decode: (b: Buffer) => unknown,
    concurrency: number
  ): Promise<{ rate: number; bytes: number; errors: number }> => {
    let bytes = 0;
    const r = await runFor(4000, concurrency, async () => {
      const res = await request(`${gw.url}${path}`, {
        method: 'GET',
        dispatcher: agent,
        headers: { accept },
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      if (res.statusCode !== 200) throw new Error(`${accept}: ${res.statusCode}`);
      bytes = body.length;
      decode(body);
    });
    return { rate: r.ok / r.seconds, bytes, errors: r.errors };
  };
  for (const [what, path, conc] of [
    ['GET pod', `/api/v1/namespaces/${ns}/pods/pod-0000`, 16],
    [`list ${n} pods`, `/api/v1/namespaces/${ns}/pods`, 4],
  ] as const) {
    console.log(`[4] representations: ${what} in JSON, binary and Table (4 s each)...`);
    const results = [];
    for (const [name, accept, decode] of kinds)
      results.push({ name, ...(await measure(path, accept, decode, conc)) });
    const json = results[0]!;
    for (const r of results) {
      rows.push({
        metric: `${what}/s, ${r.name} (${conc} in flight, incl. client decode)`,
        orch: `${f(r.rate, 0)} (${r.bytes} B)`,
        baseline: r === json ? '-' : `${f(json.rate, 0)} (JSON)`,
        ratio: r === json ? '-' : f(r.rate / json.rate, 2),
        target: '-',
        pass: undefined,
      });
      if (r.errors) notes.push(`${what} ${r.name}: ${r.errors} errors`);
    }
  }
}
