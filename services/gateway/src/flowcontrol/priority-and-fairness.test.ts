// API Priority and Fairness on the shared suite's two gateways: the mandatory and suggested
// config created, the Dangling condition set, the UID headers and the debug dumps answered; and
// under overload a flooding user (LISTs of a large collection and creates through both gateways,
// in a priority level of its own with few seats and a short queue) gets 429 with Retry-After
// while a well-behaved user in another flow schema is never rejected. The well-behaved user's
// latency is printed, not asserted (speed is the bench's: `make bench`'s apf overload step holds
// the figure and its target): seats bound how many of the flood's requests run, not the CPU they
// take on a machine every process of the suite shares (docs/architecture.md).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { after, before, test } from 'node:test';
import {
  flowSchemasPath as fsPath,
  flowcontrolGroup as group,
  grantClusterRole,
  priorityLevelsPath as plPath,
  queuedPriorityLevel,
  sharedSuite,
  userFlowSchema,
  userKubeconfig,
  waitFor,
} from '@orch/testing';
import type { FlowResourceRule, Suite } from '@orch/testing';
import { Etcd3 } from 'etcd3';

/** Every resource request, in every namespace (the flooders' rule). */
const everything: FlowResourceRule = {
  verbs: ['*'],
  apiGroups: ['*'],
  resources: ['*'],
  namespaces: ['*'],
};
const suffix = Date.now().toString(36);
const ns = `apf-${suffix}`;
const usersGroup = `apf-users-${suffix}`;
const cleanup: string[] = [];
let suite: Suite;

before(async () => {
  suite = await sharedSuite();
});
after(async () => {
  for (const path of cleanup.reverse()) await suite.request(0, 'DELETE', path);
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  ms: number;
}

/** Requests as a user of the test's group, over one keep-alive agent per gateway. */
async function asUser(name: string, group = usersGroup) {
  // One after the other: each writes the user's certificate and key to the same files.
  const creds = [];
  for (const g of suite.gateways) creds.push(await userKubeconfig(suite.pki, g, name, [group]));
  const agents = creds.map(
    (c) =>
      new Agent({
        keepAlive: true,
        maxSockets: 64,
        cert: readFileSync(c.certFile),
        key: readFileSync(c.keyFile),
        ca: readFileSync(suite.pki.caFile),
      })
  );
  const send = (gateway: number, method: string, path: string, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const [host, port] = suite.gateways[gateway]!.replace(/^https:\/\//, '').split(':');
      const start = performance.now();
      const req = request(
        {
          host,
          port,
          method,
          path,
          agent: agents[gateway],
          headers: { 'Content-Type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              ms: performance.now() - start,
            })
          );
        }
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  return { send, close: () => agents.forEach((a) => a.destroy()) };
}

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.99) - 1]!;

test('the mandatory and suggested configuration exists, and the debug dumps are readable', async () => {
  const names = async (path: string) =>
    (
      (await suite.request(0, 'GET', path)).body as { items: { metadata: { name: string } }[] }
    ).items.map((i) => i.metadata.name);
  await waitFor(
    'the bootstrap flow schemas',
    async () => (await names(fsPath)).includes('global-default'),
    {
      timeoutMs: 20_000,
    }
  );
  for (const n of ['exempt', 'catch-all', 'probes', 'system-leader-election', 'service-accounts'])
    assert.ok((await names(fsPath)).includes(n), n);
  for (const n of ['exempt', 'catch-all', 'system', 'workload-low', 'global-default'])
    assert.ok((await names(plPath)).includes(n), n);
  const dump = await suite.request(
    1,
    'GET',
    '/debug/api_priority_and_fairness/dump_priority_levels'
  );
  assert.equal(dump.status, 200);
  assert.match(dump.text, /^PriorityLevelName, ActiveQueues, IsIdle/);
  assert.match(dump.text, /\nglobal-default, /);
  const queues = await suite.request(0, 'GET', '/debug/api_priority_and_fairness/dump_queues');
  assert.match(queues.text, /^PriorityLevelName, Index, PendingRequests/);
});

test('each bootstrap FlowSchema is stored twice however many gateways start: created after its priority level, then its Dangling False', async () => {
  // Created before their levels, they were written Dangling True and then False; and each
  // gateway wrote the condition again on every digest until its cache showed the first write.
  const etcd = new Etcd3({ hosts: suite.etcd.endpoint });
  try {
    await waitFor(
      'the bootstrap schemas found',
      async () => {
        const fs = (await suite.request(0, 'GET', `${fsPath}/global-default`)).body as {
          status?: { conditions?: { type: string; status: string }[] };
        };
        return fs.status?.conditions?.some((c) => c.type === 'Dangling') === true;
      },
      { timeoutMs: 20_000 }
    );
    for (const name of ['exempt', 'catch-all', 'probes', 'system-nodes', 'global-default']) {
      const r = await etcd.getAll().prefix(`/registry/${group}/flowschemas/${name}`).exec();
      const kv = r.kvs.find((k) => k.key.toString().endsWith(`/flowschemas/${name}`));
      assert.equal(kv?.version, '2', `${name}: stored ${kv?.version} times`);
    }
  } finally {
    etcd.close();
  }
});

test('a FlowSchema naming a missing priority level is Dangling', async () => {
  const name = `apf-dangling-${suffix}`;
  const r = await suite.request(0, 'POST', fsPath, {
    apiVersion: `${group}/v1`,
    kind: 'FlowSchema',
    metadata: { name },
    spec: { priorityLevelConfiguration: { name: `missing-${suffix}` }, matchingPrecedence: 5000 },
  });
  assert.equal(r.status, 201, r.text);
  cleanup.push(`${fsPath}/${name}`);
  await waitFor(
    'the Dangling condition',
    async () => {
      const fs = (await suite.request(1, 'GET', `${fsPath}/${name}`)).body as {
        status?: { conditions?: { type: string; status: string; reason: string }[] };
      };
      const c = fs.status?.conditions?.find((x) => x.type === 'Dangling');
      return c?.status === 'True' && c.reason === 'NotFound';
    },
    { timeoutMs: 20_000 }
  );
});

test('overload: the flooder gets 429 with Retry-After, the well-behaved user is never rejected', async () => {
  await grantClusterRole(suite, 'cluster-admin', usersGroup);
  assert.equal(
    (await suite.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status,
    201
  );
  cleanup.push(`/api/v1/namespaces/${ns}`);
  const objects = 1000;
  for (let i = 0; i < objects; i += 50)
    await Promise.all(
      Array.from({ length: 50 }, (_, k) =>
        suite.request(i % 2, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
          metadata: { name: `cm-${i + k}` },
          data: { v: 'x'.repeat(100) },
        })
      )
    );
  // The flooder's own level: 1 share of the 600 seats (3), nothing borrowed, one queue of 2.
  const pl = `apf-tight-${suffix}`;
  const created = await suite.request(0, 'POST', plPath, queuedPriorityLevel(pl, 1, 2));
  assert.equal(created.status, 201, created.text);
  cleanup.push(`${plPath}/${pl}`);
  const flooderName = `apf-flooder-${suffix}`;
  const fs = await suite.request(
    0,
    'POST',
    fsPath,
    userFlowSchema(pl, flooderName, everything, 200)
  );
  assert.equal(fs.status, 201, fs.text);
  cleanup.push(`${fsPath}/${pl}`);
  const fsUid = (fs.body as { metadata: { uid: string } }).metadata.uid;
  const flooder = await asUser(flooderName);
  const polite = await asUser(`apf-polite-${suffix}`);
  try {
    const one = `/api/v1/namespaces/${ns}/configmaps/cm-1`;
    // Both gateways classify the flooder into its schema before the flood starts.
    for (const g of [0, 1])
      await waitFor(
        `gateway ${g} follows the flooder's schema`,
        async () =>
          (await flooder.send(g, 'GET', one)).headers['x-kubernetes-pf-flowschema-uid'] === fsUid,
        { timeoutMs: 60_000 }
      );
    const politeRun = async (n: number) => {
      const answers: Answer[] = [];
      for (let i = 0; i < n; i++) answers.push(await polite.send(i % 2, 'GET', one));
      return answers;
    };
    await politeRun(20); // warm the connections
    const unloaded = await politeRun(100);
    let flooding = true;
    const flood: Answer[] = [];
    const workers = Array.from({ length: 16 }, async (_, w) => {
      for (let i = 0; flooding; i++) {
        const g = w % 2;
        flood.push(
          i % 2 === 0
            ? await flooder.send(g, 'GET', `/api/v1/namespaces/${ns}/configmaps`)
            : await flooder.send(g, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
                metadata: { generateName: 'flood-' },
              })
        );
      }
    });
    const loaded = await politeRun(100);
    flooding = false;
    await Promise.all(workers);

    const [before99, during99] = [p99(unloaded.map((a) => a.ms)), p99(loaded.map((a) => a.ms))];
    console.log(
      `apf overload: polite p50 ${p50(unloaded.map((a) => a.ms)).toFixed(1)}/${p50(loaded.map((a) => a.ms)).toFixed(1)} p99 unloaded ${before99.toFixed(1)} ms, flooded ${during99.toFixed(1)} ms; flooder ${flood.length} requests, ${flood.filter((a) => a.status === 429).length} rejected`
    );
    assert.deepEqual(
      [...new Set(loaded.map((a) => a.status))],
      [200],
      'the well-behaved user is never rejected'
    );
    const rejected = flood.filter((a) => a.status === 429);
    assert.ok(rejected.length > 0, `the flooder is rejected (${flood.length} requests)`);
    assert.ok(
      rejected.every((a) => a.headers['retry-after'] === '1'),
      'Retry-After on every 429'
    );
    assert.ok(
      flood.some((a) => a.status === 200 || a.status === 201),
      'the flooder is still served'
    );
  } finally {
    flooder.close();
    polite.close();
  }
});

test('fleet: a flow flooding both gateways is capped at each to about half of one gateway', async () => {
  const dumpFleet = async (g: number) =>
    (await suite.request(g, 'GET', '/debug/api_priority_and_fairness/dump_fleet')).text;
  // The gateways hear each other's summaries.
  for (const g of [0, 1])
    await waitFor(
      `gateway ${g} hears its peer`,
      async () => /^Peers: [1-9]/.test(await dumpFleet(g)),
      {
        timeoutMs: 20_000,
      }
    );
  const fleetGroup = `apf-fleet-users-${suffix}`;
  await grantClusterRole(suite, 'cluster-admin', fleetGroup);
  const fleetNs = `apf-fleet-${suffix}`;
  assert.equal(
    (await suite.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: fleetNs } })).status,
    201
  );
  cleanup.push(`/api/v1/namespaces/${fleetNs}`);
  const one = `/api/v1/namespaces/${fleetNs}/configmaps/one`;
  assert.equal(
    (
      await suite.request(0, 'POST', `/api/v1/namespaces/${fleetNs}/configmaps`, {
        metadata: { name: 'one' },
      })
    ).status,
    201
  );
  // A level of 5 shares (about 12 of a gateway's 600 seats), nothing lent or borrowed, one queue.
  const pl = `apf-fleet-${suffix}`;
  const created = await suite.request(0, 'POST', plPath, queuedPriorityLevel(pl, 5, 50));
  assert.equal(created.status, 201, created.text);
  cleanup.push(`${plPath}/${pl}`);
  const flooderName = `apf-fleet-flooder-${suffix}`;
  const fs = await suite.request(
    0,
    'POST',
    fsPath,
    userFlowSchema(pl, flooderName, everything, 210)
  );
  assert.equal(fs.status, 201, fs.text);
  cleanup.push(`${fsPath}/${pl}`);
  const fsUid = (fs.body as { metadata: { uid: string } }).metadata.uid;
  const flooder = await asUser(flooderName, fleetGroup);
  const flow = `${pl}/${flooderName}`;
  const capAt = async (g: number): Promise<number | undefined> => {
    const row = (await dumpFleet(g)).split('\n').find((l) => l.startsWith(`${pl}, ${flow}, `));
    return row ? Number(row.split(', ')[2]) : undefined;
  };
  try {
    for (const g of [0, 1])
      await waitFor(
        `gateway ${g} follows the flooder's schema`,
        async () =>
          (await flooder.send(g, 'GET', one)).headers['x-kubernetes-pf-flowschema-uid'] === fsUid,
        { timeoutMs: 60_000 }
      );
    let flooding = true;
    const statuses: number[] = [];
    const workers = Array.from({ length: 48 }, async (_, w) => {
      while (flooding) statuses.push((await flooder.send(w % 2, 'GET', one)).status);
    });
    // A level of 12 seats per gateway (5 of 251 shares of 600, none lent or borrowed): spread over
    // both gateways, the flow holds about 12 across the fleet (caps summing to 12, give or take
    // rounding), not 12 at each.
    let caps: (number | undefined)[] = [];
    try {
      await waitFor(
        "both gateways cap the flooder's flow to one gateway's level between them",
        async () => {
          caps = [await capAt(0), await capAt(1)];
          return caps.every((c) => c !== undefined) && caps[0]! + caps[1]! <= 13;
        },
        { timeoutMs: 20_000 }
      );
    } finally {
      flooding = false;
      await Promise.all(workers);
    }
    console.log(`apf fleet: flooder's seat caps ${caps.join(' + ')}, ${statuses.length} requests`);
    assert.ok(statuses.includes(200), 'the flooder is still served');
    // Once its demand is gone, the caps go with it.
    for (const g of [0, 1])
      await waitFor(`gateway ${g} drops the cap`, async () => (await capAt(g)) === undefined, {
        timeoutMs: 20_000,
      });
  } finally {
    flooder.close();
  }
});
