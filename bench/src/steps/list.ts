// list: 10,000 configmaps seeded through raw etcd, paged in 500s through a gateway beside the
// same pages read from etcd (median of 3); then the gateway's memory per cached object, for
// realistic pods, beside the pod's JSON size.
import { sampleSum } from '../prom-text.js';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { now } from '@orch/apimachinery/meta';
import { rssKb } from '../cpu.js';
import { f } from '../report.js';
import type { BenchContext, BenchStep } from '../step.js';

export const list: BenchStep = { name: 'list', run: benchList };

function prefixEnd(prefix: string): Buffer {
  const buf = Buffer.from(prefix);
  buf[buf.length - 1] = buf[buf.length - 1]! + 1;
  return buf;
}

async function benchList(ctx: BenchContext): Promise<void> {
  const { gateways: gws, etcd } = ctx;
  const { createNamespace, mustCall } = ctx.client;
  const { rows } = ctx.report;
  const ns = 'bench-list';
  const n = 10_000;
  const gw = gws[0]!;
  console.log(`[3] list: seeding ${n} configmaps through raw etcd...`);
  await createNamespace(gw, ns);
  const prefix = `/registry/core/configmaps/${ns}/`;
  const createdAt = now();
  const batches: Promise<unknown>[] = [];
  for (let b = 0; b < n / 100; b++) {
    const puts = [];
    for (let j = 0; j < 100; j++) {
      const name = `cm-${String(b * 100 + j).padStart(5, '0')}`;
      const value = JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: ns, uid: randomUUID(), creationTimestamp: createdAt },
        data: { v: 'y'.repeat(256) },
      });
      puts.push({ request_put: { key: Buffer.from(prefix + name), value: Buffer.from(value) } });
    }
    batches.push(etcd.kv.txn({ compare: [], success: puts, failure: [] }));
    if (batches.length >= 16) await Promise.all(batches.splice(0));
  }
  await Promise.all(batches);

  const rawList = async (): Promise<number> => {
    let count = 0;
    let start = Buffer.from(prefix);
    const end = prefixEnd(prefix);
    let revision: string | undefined;
    for (;;) {
      const res = await etcd.kv.range({
        key: start,
        range_end: end,
        limit: 500,
        ...(revision ? { revision } : {}),
      });
      revision ??= res.header.revision;
      count += res.kvs.length;
      if (!res.more || res.kvs.length === 0) break;
      start = Buffer.concat([res.kvs[res.kvs.length - 1]!.key, Buffer.from([0])]);
    }
    return count;
  };
  const gwList = async (): Promise<number> => {
    let count = 0;
    let cont = '';
    for (;;) {
      const url = `${gw.url}/api/v1/namespaces/${ns}/configmaps?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`;
      const body = JSON.parse(await mustCall(url, 'GET')) as {
        items: unknown[];
        metadata: { continue?: string };
      };
      count += body.items.length;
      cont = body.metadata.continue ?? '';
      if (!cont) break;
    }
    return count;
  };
  const timeIt = async (fn: () => Promise<number>): Promise<{ ms: number; count: number }> => {
    await fn(); // warm-up
    const runs: number[] = [];
    let count = 0;
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      count = await fn();
      runs.push(performance.now() - t0);
    }
    runs.sort((a, b) => a - b);
    return { ms: runs[1]!, count };
  };
  console.log('[3] list: paging raw etcd and the gateway (median of 3)...');
  const raw = await timeIt(rawList);
  const g = await timeIt(gwList);
  const ratio = g.ms / raw.ms;
  rows.push({
    metric: `list ${n} in pages of 500, ms`,
    orch: `${f(g.ms, 0)} (${g.count} items)`,
    baseline: `${f(raw.ms, 0)} (${raw.count} keys)`,
    ratio: f(ratio, 2) + 'x',
    target: '<= 1.5x raw',
    pass: ratio <= 1.5 && g.count === n,
  });
  await benchCachedObjectMemory(ctx);
}

/** A pod as a scheduler and kubelet leave it: labels, owner, managed fields, a spec, a status. */
function realisticPod(ns: string, name: string, createdAt: string): Record<string, unknown> {
  const time = createdAt;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      uid: randomUUID(),
      creationTimestamp: time,
      generateName: 'web-7c9f8d6b5-',
      labels: { app: 'web', tier: 'frontend', 'pod-template-hash': '7c9f8d6b5' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': time },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web-7c9f8d6b5',
          uid: randomUUID(),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      managedFields: [
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': {
              'f:generateName': {},
              'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {}, 'f:tier': {} },
              'f:ownerReferences': { '.': {}, [`k:{"uid":"${randomUUID()}"}`]: {} },
            },
            'f:spec': {
              'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
            },
          },
        },
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:status': { 'f:conditions': {}, 'f:containerStatuses': {}, 'f:podIP': {} },
          },
          subresource: 'status',
        },
      ],
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry.example.com/team/web:1.27.3',
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          ],
          resources: {
            requests: { cpu: '100m', memory: '128Mi' },
            limits: { cpu: '500m', memory: '256Mi' },
          },
          volumeMounts: [
            {
              name: 'kube-api-access',
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              readOnly: true,
            },
          ],
          readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      volumes: [
        {
          name: 'kube-api-access',
          projected: {
            sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }],
          },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      nodeName: `node-${name.slice(-2)}`,
      schedulerName: 'default-scheduler',
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    },
    status: {
      phase: 'Running',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: time,
      })),
      hostIP: '10.0.3.17',
      podIP: '10.244.3.41',
      podIPs: [{ ip: '10.244.3.41' }],
      startTime: time,
      containerStatuses: [
        {
          name: 'web',
          state: { running: { startedAt: time } },
          ready: true,
          restartCount: 0,
          image: 'registry.example.com/team/web:1.27.3',
          imageID: `registry.example.com/team/web@sha256:${'ab12'.repeat(16)}`,
          containerID: `containerd://${'f00d'.repeat(16)}`,
          started: true,
        },
      ],
      qosClass: 'Burstable',
    },
  };
}

/**
 * The gateway's memory per cached object: realistic pods seeded through raw etcd, then the
 * gateway's pods cache started (a read) and filled; RSS growth per pod beside the pod's JSON.
 */
async function benchCachedObjectMemory(ctx: BenchContext): Promise<void> {
  const { gateways: gws, etcd } = ctx;
  const { createNamespace, mustCall } = ctx.client;
  const { rows, notes } = ctx.report;
  const gw = gws[0]!;
  const ns = 'bench-cache-memory';
  const n = Number(process.env['BENCH_CACHED_PODS'] ?? 10_000);
  console.log(`[3] cache memory: seeding ${n} pods through raw etcd...`);
  await createNamespace(gw, ns);
  const prefix = `/registry/core/pods/${ns}/`;
  const createdAt = now();
  let jsonBytes = 0;
  const batches: Promise<unknown>[] = [];
  for (let b = 0; b < n / 100; b++) {
    const puts = [];
    for (let j = 0; j < 100; j++) {
      const name = `web-7c9f8d6b5-${String(b * 100 + j).padStart(5, '0')}`;
      const value = Buffer.from(JSON.stringify(realisticPod(ns, name, createdAt)));
      jsonBytes += value.length;
      puts.push({ request_put: { key: Buffer.from(prefix + name), value } });
    }
    batches.push(etcd.kv.txn({ compare: [], success: puts, failure: [] }));
    if (batches.length >= 16) await Promise.all(batches.splice(0));
  }
  await Promise.all(batches);
  await sleep(2000);
  const before = rssKb(gw.pid);
  // The first read starts the gateway's pods cache; wait until it holds every pod.
  await mustCall(`${gw.url}/api/v1/pods?resourceVersion=0&limit=1`, 'GET');
  const cached = async (): Promise<number> => {
    const text = await mustCall(`${gw.url}/metrics`, 'GET');
    const resource = '/registry/core/pods/';
    return sampleSum(text, 'orch_gateway_watch_cache_objects', { resource }) ?? 0;
  };
  const deadline = Date.now() + 60_000;
  while ((await cached()) < n && Date.now() < deadline) await sleep(200);
  const held = await cached();
  await sleep(3000);
  const after = rssKb(gw.pid);
  const perObject = ((after - before) * 1024) / Math.max(1, held);
  const jsonPer = jsonBytes / n;
  rows.push({
    metric: `gateway RSS per cached pod, bytes (n=${held})`,
    orch: f(perObject, 0),
    baseline: `${f(jsonPer, 0)} (pod JSON)`,
    ratio: f(perObject / jsonPer, 2) + 'x',
    target: '<= 3x JSON',
    pass: held >= n && perObject <= 3 * jsonPer,
  });
  notes.push(
    `cached-object memory: ${n} realistic pods (BENCH_CACHED_PODS) seeded through etcd, the gateway's pods cache started by a read; RSS from /proc/<pid>/status before and 3 s after it held them all, no forced GC: ${before} -> ${after} KB`
  );
}
