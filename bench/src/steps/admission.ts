// admission: creates/s through the gateways into three namespaces side by side, interleaved: one
// no webhook or policy selects, one that a mutating and a validating webhook select (a real
// HTTPS backend on loopback, in the bench's process), and one that a ValidatingAdmissionPolicy
// selects (one CEL rule). Beside each rate, the CPU the suite's processes spent per create; the
// difference to the plain namespace is what a webhook round trip (or the policy) costs the
// suite. The backend's own CPU is the bench process's and is not counted.
import { reviewResponse, startWebhookServer } from '@orch/testing';
import type { WebhookServer } from '@orch/testing';
import { cpuSeconds } from '../cpu.js';
import { f } from '../report.js';
import { mergeRuns, pct, runFor } from '../stats.js';
import type { RunResult } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';

export const admission: BenchStep = { name: 'admission', run: benchAdmission };

const namespaces = { none: 'bench-adm-none', hooks: 'bench-adm-hooks', policy: 'bench-adm-cel' };
type Case = keyof typeof namespaces;

interface Measured {
  run: RunResult;
  /** CPU µs per create of the suite's processes (not the bench, which hosts the backend). */
  suiteCpuUs: number;
}

async function benchAdmission(ctx: BenchContext): Promise<void> {
  const { gateways: gws, client, processes } = ctx;
  const { rows, notes } = ctx.report;
  const { mustCall, call } = client;
  const hooks = await startWebhookServer((c) => {
    if (c.path === '/mutate') {
      const patch = [{ op: 'add', path: '/metadata/labels', value: { 'bench/mutated': 'true' } }];
      return { body: reviewResponse(c.body, { allowed: true, patch }) };
    }
    return { body: reviewResponse(c.body, { allowed: true }) };
  });
  try {
    const base = gws[0]!.url;
    for (const [which, name] of Object.entries(namespaces)) {
      await mustCall(
        `${base}/api/v1/namespaces`,
        'POST',
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { bench: which } } },
        [201, 409]
      );
    }
    await configure(ctx, hooks);
    await inEffect(ctx, hooks);

    const runId = Date.now().toString(36);
    let round = 0;
    const measure = async (which: Case): Promise<Measured> => {
      const at = round++;
      const ns = namespaces[which];
      const before = processes.map((p) => cpuSeconds(p.pid));
      const run = await runFor(4000, 32, async (i) => {
        const g = gws[i % gws.length]!;
        const r = await call(`${g.url}/api/v1/namespaces/${ns}/configmaps`, 'POST', {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `a-${runId}-${at}-${which}-${i}` },
          data: { v: 'x'.repeat(256) },
        });
        if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text.slice(0, 200)}`);
      });
      const spent = processes.reduce((s, p, k) => s + cpuSeconds(p.pid) - before[k]!, 0);
      return { run, suiteCpuUs: (spent * 1e6) / Math.max(1, run.ok) };
    };
    console.log(
      '[7] admission: creates with no webhook, two webhooks, one CEL policy, interleaved (32 in flight, 2 x 3 x 4 s)...'
    );
    const results: Record<Case, Measured[]> = { none: [], hooks: [], policy: [] };
    for (const order of [
      ['none', 'hooks', 'policy'],
      ['policy', 'hooks', 'none'],
    ] as Case[][]) {
      for (const which of order) results[which].push(await measure(which));
    }
    const merged = (which: Case) => {
      const [a, b] = results[which] as [Measured, Measured];
      const run = mergeRuns(a.run, b.run);
      const cpu = (a.suiteCpuUs * a.run.ok + b.suiteCpuUs * b.run.ok) / Math.max(1, run.ok);
      return { run, cpu, rate: run.ok / run.seconds };
    };
    const none = merged('none');
    for (const [which, label] of [
      ['hooks', '1 mutating + 1 validating webhook'],
      ['policy', '1 CEL policy'],
    ] as const) {
      const m = merged(which);
      rows.push({
        metric: `creates/s, ${label} (32 in flight)`,
        orch: f(m.rate, 0),
        baseline: `${f(none.rate, 0)} (no webhook)`,
        ratio: f(m.rate / none.rate, 2),
        target: which === 'hooks' ? 'ratio >= 0.7' : '-',
        pass: which === 'hooks' ? m.rate / none.rate >= 0.7 : undefined,
      });
      const addedMs = (m.cpu - none.cpu) / 1000;
      rows.push({
        metric: `suite CPU ms per create added, ${label}`,
        orch: f(addedMs, 2),
        baseline: `${f(none.cpu / 1000, 2)} (no webhook)`,
        ratio: f(m.cpu / none.cpu, 2),
        target: which === 'hooks' ? '< 2 ms' : '-',
        pass: which === 'hooks' ? addedMs < 2 : undefined,
      });
      rows.push({
        metric: `create p50/p99 ms, ${label}`,
        orch: `${f(pct(m.run.latencies, 0.5))}/${f(pct(m.run.latencies, 0.99))}`,
        baseline: `${f(pct(none.run.latencies, 0.5))}/${f(pct(none.run.latencies, 0.99))}`,
        ratio: f(pct(m.run.latencies, 0.5) / pct(none.run.latencies, 0.5), 2),
        target: '-',
        pass: undefined,
      });
      if (m.run.errors)
        notes.push(`admission (${label}): ${m.run.errors} errors, first: ${m.run.firstError}`);
    }
    if (none.run.errors)
      notes.push(`admission (none): ${none.run.errors} errors, first: ${none.run.firstError}`);
    notes.push(
      `admission: the webhook backend answered ${hooks.callsTo('/mutate').length} mutating and ${hooks.callsTo('/validate').length} validating reviews`
    );
  } finally {
    await cleanUp(ctx);
    await hooks.stop();
  }
}

/** The two webhook configurations and the policy with its binding, each for one namespace. */
async function configure(ctx: BenchContext, hooks: WebhookServer): Promise<void> {
  const base = ctx.gateways[0]!.url;
  const { mustCall } = ctx.client;
  const group = `${base}/apis/admissionregistration.orch.io/v1`;
  const webhook = (name: string, path: string) => ({
    name,
    clientConfig: { url: hooks.url(path), caBundle: hooks.caBundle },
    rules: [
      { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
    ],
    namespaceSelector: { matchLabels: { bench: 'hooks' } },
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
  });
  await mustCall(
    `${group}/mutatingwebhookconfigurations`,
    'POST',
    {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'bench-mutate' },
      webhooks: [webhook('mutate.bench.orch.io', '/mutate')],
    },
    [201, 409]
  );
  await mustCall(
    `${group}/validatingwebhookconfigurations`,
    'POST',
    {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'bench-validate' },
      webhooks: [webhook('validate.bench.orch.io', '/validate')],
    },
    [201, 409]
  );
  await mustCall(
    `${group}/validatingadmissionpolicies`,
    'POST',
    {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'bench-cel' },
      spec: {
        matchConstraints: {
          resourceRules: [
            {
              operations: ['CREATE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['configmaps'],
            },
          ],
        },
        validations: [
          {
            expression:
              "!has(object.metadata.labels) || !('bench/refuse' in object.metadata.labels)",
            message: 'refused by the bench policy',
          },
        ],
      },
    },
    [201, 409]
  );
  await mustCall(
    `${group}/validatingadmissionpolicybindings`,
    'POST',
    {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'bench-cel' },
      spec: {
        policyName: 'bench-cel',
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchLabels: { bench: 'policy' } } },
      },
    },
    [201, 409]
  );
}

/**
 * Waits until the admission service acts on all of it: a create in the webhooks' namespace
 * reaches the backend, and a create the policy refuses is refused.
 */
async function inEffect(ctx: BenchContext, hooks: WebhookServer): Promise<void> {
  const base = ctx.gateways[0]!.url;
  const { call } = ctx.client;
  const deadline = Date.now() + 30_000;
  for (let i = 0; ; i++) {
    if (Date.now() > deadline) throw new Error('admission configuration not in effect after 30 s');
    const seen = hooks.calls.length;
    await call(`${base}/api/v1/namespaces/${namespaces.hooks}/configmaps`, 'POST', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `probe-${i}` },
    });
    const refused = await call(
      `${base}/api/v1/namespaces/${namespaces.policy}/configmaps`,
      'POST',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `probe-${i}`, labels: { 'bench/refuse': 'yes' } },
      }
    );
    if (hooks.calls.length >= seen + 2 && refused.status === 422) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Removes the configurations first (so nothing calls the stopped backend), then namespaces. */
async function cleanUp(ctx: BenchContext): Promise<void> {
  const base = ctx.gateways[0]!.url;
  const { call } = ctx.client;
  const group = `${base}/apis/admissionregistration.orch.io/v1`;
  for (const path of [
    'mutatingwebhookconfigurations/bench-mutate',
    'validatingwebhookconfigurations/bench-validate',
    'validatingadmissionpolicybindings/bench-cel',
    'validatingadmissionpolicies/bench-cel',
  ]) {
    await call(`${group}/${path}`, 'DELETE');
  }
}
