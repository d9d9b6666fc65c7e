// custom resources: POST and GET of a custom resource (a CRD with a structural schema, served
// live by both gateways) beside a ConfigMap of the same size, each beside the raw etcd baseline
// of the same run (txn creates, 64 in flight; linearizable ranges, 16 in flight). The CRD is
// marked Established through /status (the bench runs without the controllers). The CRD also
// serves v2, converted by a conversion webhook (a real HTTPS backend on loopback, in the bench's
// process): GETs at v2 of objects stored at v1 show what one ConversionReview per read costs
// beside the GETs at v1, which need no conversion.
import { startWebhookServer } from '@orch/testing';
import type { WebhookCall } from '@orch/testing';
import { f } from '../report.js';
import { pct, runFor } from '../stats.js';
import type { RunResult } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';

const kib = 'x'.repeat(1024);
const group = 'bench.example.com';
const crds = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';
const seconds = 5000;

const schema = {
  openAPIV3Schema: {
    type: 'object',
    properties: {
      data: { type: 'object', properties: { v: { type: 'string', maxLength: 4096 } } },
    },
  },
};

/** The CRD: v1 stored, v2 of the same shape converted by the webhook at `url`. */
const crdFor = (url: string, caBundle: string) => ({
  apiVersion: 'apiextensions.orch.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `payloads.${group}` },
  spec: {
    group,
    names: { plural: 'payloads', singular: 'payload', kind: 'Payload', listKind: 'PayloadList' },
    scope: 'Namespaced',
    versions: [
      { name: 'v1', served: true, storage: true, schema },
      { name: 'v2', served: true, storage: false, schema },
    ],
    conversion: {
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: ['v1'], clientConfig: { url, caBundle } },
    },
  },
});
type Crd = ReturnType<typeof crdFor>;

/** The conversion webhook: the same fields at the other version. */
function convertReview(call: WebhookCall): { body: unknown } {
  const review = call.body as {
    apiVersion: string;
    request: { uid: string; desiredAPIVersion: string; objects: Record<string, unknown>[] };
  };
  const { uid, desiredAPIVersion, objects } = review.request;
  return {
    body: {
      apiVersion: review.apiVersion,
      kind: 'ConversionReview',
      response: {
        uid,
        result: { status: 'Success' },
        convertedObjects: objects.map((o) => ({ ...o, apiVersion: desiredAPIVersion })),
      },
    },
  };
}

export const customResources: BenchStep = {
  name: 'custom resources',
  async run(ctx) {
    const hook = await startWebhookServer(convertReview);
    try {
      await establish(ctx, crdFor(hook.url('/convert'), hook.caBundle));
      await measure(ctx, () => hook.calls.length);
    } finally {
      await hook.stop();
    }
  },
};

/** Creates and GETs; `webhookCalls` counts the ConversionReviews the webhook answered. */
async function measure(ctx: BenchContext, webhookCalls: () => number): Promise<void> {
  const runId = Date.now().toString(36);
  const kinds = [
    { label: 'ConfigMap', path: '/api/v1/namespaces/default/configmaps', apiVersion: 'v1' },
    {
      label: 'custom resource',
      path: `/apis/${group}/v1/namespaces/default/payloads`,
      apiVersion: `${group}/v1`,
    },
  ];
  const converted = {
    label: 'custom resource at v2 (conversion webhook)',
    path: `/apis/${group}/v2/namespaces/default/payloads`,
    apiVersion: `${group}/v2`,
  };
  console.log('[cr] creates: raw etcd txn (64 in flight)...');
  const rawCreates = await runFor(seconds, 64, async (i) => {
    const key = Buffer.from(`/bench-raw/cr-creates/${runId}-${i}`);
    const res = await ctx.etcd.kv.txn({
      compare: [{ key, target: 'Version', result: 'Equal', version: 0 }],
      success: [{ request_put: { key, value: Buffer.from(kib) } }],
      failure: [],
    });
    if (!res.succeeded) throw new Error('txn did not succeed');
  });
  const rawRate = rawCreates.ok / rawCreates.seconds;
  const created = new Map<string, string[]>();
  for (const k of kinds) {
    console.log(`[cr] creates: gateway POST of a ${k.label} (64 in flight)...`);
    const names: string[] = [];
    const run = await runFor(seconds, 64, async (i) => {
      const name = `cr-${runId}-${i}`;
      const g = ctx.gateways[i % ctx.gateways.length]!;
      const r = await ctx.client.call(`${g.url}${k.path}`, 'POST', {
        apiVersion: k.apiVersion,
        kind: k.label === 'ConfigMap' ? 'ConfigMap' : 'Payload',
        metadata: { name },
        data: { v: kib },
      });
      if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text.slice(0, 200)}`);
      names.push(name);
    });
    created.set(k.label, names);
    const rate = run.ok / run.seconds;
    ctx.report.rows.push({
      metric: `${k.label} creates/s (64 in flight, 1 KiB)`,
      orch: f(rate, 0),
      baseline: f(rawRate, 0) + ' (etcd txn)',
      ratio: f(rate / rawRate, 2),
      target: '-',
      pass: undefined,
    });
    note(ctx, `${k.label} creates`, run);
  }
  console.log('[cr] gets: raw etcd linearizable range (16 in flight)...');
  const cmNames = created.get('ConfigMap') ?? [];
  if (cmNames.length === 0) throw new Error('no ConfigMaps were created');
  const rawGets = await runFor(seconds, 16, async (i) => {
    const name = cmNames[i % Math.min(cmNames.length, 1000)]!;
    const res = await ctx.etcd.kv.range({
      key: Buffer.from(`/registry/core/configmaps/default/${name}`),
    });
    if (res.kvs.length !== 1) throw new Error('raw get: not found');
  });
  const rawP50 = pct(rawGets.latencies, 0.5);
  const rawGetRate = rawGets.ok / rawGets.seconds;
  created.set(converted.label, created.get('custom resource') ?? []);
  for (const k of [...kinds, converted]) {
    const names = created.get(k.label) ?? [];
    if (names.length === 0) throw new Error(`no ${k.label} was created`);
    console.log(`[cr] gets: gateway GET of a ${k.label} (16 in flight)...`);
    const calls = webhookCalls();
    const run = await runFor(seconds, 16, async (i) => {
      const g = ctx.gateways[i % ctx.gateways.length]!;
      const name = names[i % Math.min(names.length, 1000)]!;
      const r = await ctx.client.call(`${g.url}${k.path}/${name}`, 'GET');
      if (r.status !== 200) throw new Error(`get: ${r.status} ${r.text.slice(0, 200)}`);
    });
    if (k === converted) {
      ctx.report.notes.push(
        `${k.label}: ${webhookCalls() - calls} ConversionReviews for ${run.ok} GETs`
      );
    }
    const rate = run.ok / run.seconds;
    ctx.report.rows.push({
      metric: `${k.label} GET/s (16 in flight)`,
      orch: f(rate, 0),
      baseline: f(rawGetRate, 0) + ' (etcd range)',
      ratio: f(rate / rawGetRate, 2),
      target: '-',
      pass: undefined,
    });
    ctx.report.rows.push({
      metric: `${k.label} GET p50 ms`,
      orch: f(pct(run.latencies, 0.5), 2),
      baseline: f(rawP50, 2) + ' (etcd range)',
      ratio: f(pct(run.latencies, 0.5) / rawP50, 2),
      target: '-',
      pass: undefined,
    });
    note(ctx, `${k.label} gets`, run);
  }
}

function note(ctx: BenchContext, what: string, run: RunResult): void {
  if (run.errors) ctx.report.notes.push(`${what}: ${run.errors} errors, first: ${run.firstError}`);
}

/** Creates the CRD, marks it Established and waits until both gateways serve it. */
async function establish(ctx: BenchContext, crd: Crd): Promise<void> {
  const gw = ctx.gateways[0]!;
  await ctx.client.mustCall(`${gw.url}${crds}`, 'POST', crd, [201, 409]);
  const current = JSON.parse(
    await ctx.client.mustCall(`${gw.url}${crds}/${crd.metadata.name}`, 'GET')
  );
  current.status = {
    ...current.status,
    acceptedNames: crd.spec.names,
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
  };
  await ctx.client.mustCall(`${gw.url}${crds}/${crd.metadata.name}/status`, 'PUT', current);
  for (const g of ctx.gateways) {
    for (let i = 0; ; i++) {
      const r = await ctx.client.call(
        `${g.url}/apis/${group}/v1/namespaces/default/payloads`,
        'GET'
      );
      if (r.status === 200) break;
      if (i > 200) throw new Error(`${g.url} does not serve the custom resource: ${r.status}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }
}
