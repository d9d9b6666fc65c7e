// The chaos test (faults the suite must survive): the suite as compose runs it (two gateways, two
// storage replicas), a steady write load over both gateways and 100 reflector-like watchers,
// while one process after the other is SIGKILLed and started again with its same flags: a
// gateway, the storage replica publishing to NATS, the other replica, the authorizer, the
// admission service, NATS (same port), etcd (same data dir and ports). Then, against etcd read
// directly: every acknowledged write is there; every watcher saw every change in order between
// its lists (or got a 410 and listed again) and ends with etcd's state; none saw a change twice
// or out of order; every process was ready within 10 s of the one killed coming back; every
// acknowledged write read back at once through the other gateway (a consistent GET) showed it.
//
// `make test` runs one round; `make chaos` more (CHAOS_ROUNDS, and CHAOS_SECONDS: go on with
// rounds until that much time has passed). CHAOS_LOGS=<dir> keeps the processes' logs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { AdminClient } from './admin-client.js';
import { EtcdTruth } from './etcd-truth.js';
import type { EtcdChange } from './etcd-truth.js';
import { WriteLoad } from './load.js';
import { Reflector } from './reflector.js';
import type { Segment } from './reflector.js';

const rounds = Math.max(1, Number(process.env['CHAOS_ROUNDS'] ?? '1'));
const minSeconds = Number(process.env['CHAOS_SECONDS'] ?? '0');
const watchers = Number(process.env['CHAOS_WATCHERS'] ?? '100');
/** Writers in parallel (each owning its keys), and their pause between writes. */
const writers = Number(process.env['CHAOS_WRITERS'] ?? '6');
const writePauseMs = Number(process.env['CHAOS_WRITE_PAUSE_MS'] ?? '20');
const namespace = 'chaos';
const prefix = `/registry/core/configmaps/${namespace}/`;
/** The bound of the issue: ready again within 10 s of the dependency returning. */
const readyBoundMs = 10_000;
/** How long a killed process stays down (CHAOS_DOWN_SECONDS; longer outages test reconnect backoff). */
const downMs = Number(process.env['CHAOS_DOWN_SECONDS'] ?? '1') * 1000;
/** CHAOS_FAULTS=nats,etcd: only the faults whose kind is named (gateway, publisher, replica, authorizer, admission, nats, etcd). */
const only = process.env['CHAOS_FAULTS']?.split(',').filter(Boolean);
/** Load between two faults. */
const settleMs = 1000;
/** A restarted process's own start (a gateway compiles its schemas): bounded, printed. */
const restartBoundMs = 30_000;
/** Watchers reaching etcd's final state after the load stops. */
const convergeBoundMs = 30_000;

let suite: Suite;
let client: AdminClient;
let truth: EtcdTruth;

before(async () => {
  suite = await startSuite({ gateways: 2, storageReplicas: 2, controllers: false });
  client = new AdminClient(suite);
  truth = new EtcdTruth(suite.etcd.endpoint);
  const ns = await client.call(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace },
  });
  assert.equal(ns.status, 201, `create namespace ${namespace}: ${JSON.stringify(ns.body)}`);
});

after(async () => {
  client?.close();
  truth?.close();
  // CHAOS_LOGS=<dir>: keep every process's log there (the suite's home goes with stop()).
  const keep = process.env['CHAOS_LOGS'];
  if (keep && suite) await cp(suite.logDir, keep, { recursive: true });
  await suite?.stop();
});

/** A fault: which process to kill (resolved when its turn comes) and what it is. */
interface Fault {
  kind: string;
  what: string;
  /** Writes need it: they may fail while it is down (else every write must succeed). */
  onWritePath: boolean;
  process: () => Promise<string>;
}

const faults: Fault[] = [
  { kind: 'gateway', onWritePath: true, what: 'a gateway', process: async () => 'gateway-1' },
  {
    kind: 'publisher',
    onWritePath: true,
    what: 'the publishing storage replica',
    process: async () => {
      const p = await suite.publisher();
      if (!p) throw new Error('no storage replica holds the publisher lease');
      return p;
    },
  },
  {
    kind: 'replica',
    onWritePath: true,
    what: 'the other storage replica',
    process: async () => ((await suite.publisher()) === 'storage-0' ? 'storage-1' : 'storage-0'),
  },
  {
    kind: 'authorizer',
    onWritePath: true,
    what: 'the authorizer',
    process: async () => 'authorizer',
  },
  {
    kind: 'admission',
    onWritePath: true,
    what: 'the admission service',
    process: async () => 'admission',
  },
  { kind: 'nats', onWritePath: false, what: 'NATS', process: async () => 'nats' },
  { kind: 'etcd', onWritePath: true, what: 'etcd', process: async () => 'etcd' },
].filter((f) => !only || only.includes(f.kind));

test(
  `chaos: ${rounds} round(s) of kill -9 under load and ${watchers} watches; nothing acknowledged is lost, no event is lost, repeated or reordered`,
  { timeout: (150_000 + faults.length * downMs) * rounds + Math.max(0, minSeconds) * 2000 },
  async () => {
    const started = Date.now();
    const reflectors = Array.from(
      { length: watchers },
      (_, id) => new Reflector(client, { id, gateway: id % 2, namespace })
    );
    await Promise.all(reflectors.map((r) => r.start()));
    const load = new WriteLoad(client, {
      namespace,
      keys: Math.max(40, writers * 4),
      writers,
      pauseMs: writePauseMs,
    });
    load.start();

    /** Per process: the longest time to ready seen (restart of itself, or after another's). */
    const restartMs = new Map<string, number[]>();
    const readyAfter = new Map<string, number>();
    const notReady: string[] = [];
    /** Per fault: writes that failed between the kill and every process being ready again. */
    const failedWrites: string[] = [];
    const offPath: string[] = [];
    let round = 0;
    try {
      await sleep(settleMs);
      while (round < rounds || Date.now() - started < minSeconds * 1000) {
        round++;
        for (const fault of faults) {
          const name = await fault.process();
          const killedAt = Date.now();
          await suite.kill(name);
          await sleep(downMs);
          const ms = await suite.restart(name, restartBoundMs);
          restartMs.set(name, [...(restartMs.get(name) ?? []), ms]);
          // Every other process: ready within the bound of the killed one being back.
          const others = suite.processNames().filter((p) => p !== name);
          await Promise.all(
            others.map(async (p) => {
              try {
                const waited = await suite.waitReady(p, readyBoundMs);
                readyAfter.set(p, Math.max(readyAfter.get(p) ?? 0, waited));
              } catch (err) {
                notReady.push(
                  `round ${round}, after ${fault.what} (${name}) came back: ${(err as Error).message}`
                );
              }
            })
          );
          // Ready means serving: a write through each gateway now succeeds at once.
          for (const [g, url] of suite.gateways.entries()) {
            const probe = await client.call(g, 'POST', '/api/v1/namespaces/default/configmaps', {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: `ready-${round}-${fault.kind}-${g}` },
            });
            if (probe.status !== 201) {
              notReady.push(
                `round ${round}: gateway ${g} (${url}) was ready after ${fault.what} (${name}) came back, ` +
                  `but a write got ${probe.status} ${probe.error ?? JSON.stringify(probe.body).slice(0, 400)}`
              );
            }
          }
          const failed = load.failures.filter((f) => f.at >= killedAt);
          failedWrites.push(`${name} ${failed.length}`);
          if (!fault.onWritePath && failed.length > 0) {
            offPath.push(
              `round ${round}: ${failed.length} writes failed while ${fault.what} (${name}) was down, ` +
                `though writes do not need it; first: ${failed[0]!.what}`
            );
          }
          await sleep(settleMs);
        }
      }
    } finally {
      await load.stop();
    }
    const loadStoppedAt = Date.now();

    // The watchers reach etcd's final state (bounded).
    const final = await truth.current(prefix);
    const behind = (): Reflector[] => reflectors.filter((r) => !sameState(r.store, final.objects));
    while (behind().length > 0 && Date.now() - loadStoppedAt < convergeBoundMs) await sleep(200);
    const stale = behind();
    await Promise.all(reflectors.map((r) => r.stop()));

    // Evidence, gathered before any assertion so that the report shows every broken invariant.
    const problems: string[] = [];
    problems.push(...notReady.map((m) => `not ready in time: ${m}`));
    problems.push(...load.surprises.map((m) => `unexpected answer: ${m}`));
    problems.push(...offPath);

    let found = 0;
    for (const w of load.acked) {
      const at = await truth.at(`${prefix}${w.name}`, w.revision);
      if (at && at.revision === w.revision && at.value === w.value) found++;
      else
        problems.push(
          `acknowledged ${w.op} of ${w.name} at ${w.revision} (v=${w.value}) not in etcd: there ${JSON.stringify(at)}`
        );
    }
    for (const [name, record] of load.keys) {
      const now = final.objects.get(name);
      const matches = (s: (typeof record)['acked']): boolean =>
        s.exists
          ? now !== undefined &&
            now.value === s.value &&
            (s.revision === undefined || now.revision === s.revision)
          : now === undefined;
      if (![record.acked, ...record.unanswered].some(matches)) {
        problems.push(
          `${name}: etcd holds ${JSON.stringify(now)}, the last acknowledged write left ${JSON.stringify(record.acked)}` +
            (record.unanswered.length
              ? ` (unanswered since: ${JSON.stringify(record.unanswered)})`
              : '')
        );
      }
    }

    for (const r of reflectors) problems.push(...r.violations);
    const firstFrom = Math.min(...reflectors.flatMap((r) => r.segments.map((s) => s.from)));
    // A last change, made after every watcher stopped, marks the end of the history to read.
    const end = await client.call(0, 'POST', `/api/v1/namespaces/${namespace}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'end-of-history' },
    });
    assert.equal(end.status, 201, `the end marker: ${JSON.stringify(end.body)}`);
    const endRevision = Number(
      (end.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion
    );
    const history = (await truth.history(prefix, firstFrom, endRevision)).filter(
      (c) => c.revision < endRevision
    );
    let missedOrExtra = 0;
    for (const r of reflectors) {
      for (const s of r.segments) {
        const diff = compareSegment(s, history);
        if (diff) {
          missedOrExtra++;
          if (missedOrExtra <= 10) problems.push(`watcher ${r.id} (gateway ${r.gateway}): ${diff}`);
        }
      }
    }
    if (missedOrExtra > 10) problems.push(`... ${missedOrExtra - 10} more segments differ`);
    for (const r of stale.slice(0, 10)) {
      problems.push(
        `watcher ${r.id} (gateway ${r.gateway}) did not reach etcd's state within ${convergeBoundMs} ms: ` +
          `${describeDiff(r.store, final.objects)}; at ${r.revision}, last problem: ${r.lastProblem}`
      );
    }

    const sum = (k: 'events' | 'bookmarks' | 'relists' | 'reconnects'): number =>
      reflectors.reduce((n, r) => n + r.counts[k], 0);
    const report = [
      `chaos: ${round} round(s), ${faults.length} faults each, ${((Date.now() - started) / 1000).toFixed(1)} s`,
      `  writes: ${load.counts.attempts} attempts, ${load.counts.acknowledged} acknowledged ` +
        `(${load.acked.length} creates/updates, ${found} found in etcd at their revision), ` +
        `${load.counts.retried} retried, ${load.counts.corrected} corrected by a 404/409; ` +
        `read back through the other gateway: ${load.readBacks.answered} of ${load.readBacks.attempted} answered (a stale answer is an unexpected answer below)`,
      `  watchers: ${watchers}, events seen ${sum('events')}, bookmarks ${sum('bookmarks')}, ` +
        `relists ${sum('relists')}, reconnects ${sum('reconnects')}, etcd changes ${history.length}`,
      `  writes failed (no answer or 5xx) per fault: ${failedWrites.join(', ')}`,
      `  restarted, ms to ready: ${[...restartMs].map(([p, ms]) => `${p} ${ms.join('/')}`).join(', ')}`,
      `  others, longest ms to ready after a restart: ${[...readyAfter].map(([p, ms]) => `${p} ${ms}`).join(', ')}`,
    ].join('\n');
    console.log(report);
    assert.deepEqual(problems, [], `broken invariants:\n${problems.join('\n')}\n${report}`);
    assert.ok(load.counts.acknowledged > 0 && sum('events') > 0, 'the load ran and was watched');
    assert.ok(load.readBacks.answered > 0, 'writes were read back');
  }
);

function sameState(
  store: Map<string, { revision: number; value: string | undefined }>,
  etcd: Map<string, { revision: number; value: string | undefined }>
): boolean {
  if (store.size !== etcd.size) return false;
  for (const [name, o] of etcd) {
    const s = store.get(name);
    if (!s || s.revision !== o.revision || s.value !== o.value) return false;
  }
  return true;
}

function describeDiff(
  store: Map<string, { revision: number; value: string | undefined }>,
  etcd: Map<string, { revision: number; value: string | undefined }>
): string {
  const out: string[] = [];
  for (const [name, o] of etcd) {
    const s = store.get(name);
    if (!s) out.push(`${name} missing (etcd at ${o.revision})`);
    else if (s.revision !== o.revision) out.push(`${name} at ${s.revision}, etcd at ${o.revision}`);
  }
  for (const name of store.keys()) if (!etcd.has(name)) out.push(`${name} gone from etcd`);
  return out.slice(0, 5).join(', ') + (out.length > 5 ? `, ... ${out.length - 5} more` : '');
}

/** Undefined when the segment's events are exactly etcd's changes in (from, to]; else the first difference. */
function compareSegment(s: Segment, history: EtcdChange[]): string | undefined {
  const expected = history.filter((c) => c.revision > s.from && c.revision <= s.to);
  const n = Math.max(expected.length, s.events.length);
  for (let i = 0; i < n; i++) {
    const want = expected[i];
    const got = s.events[i];
    const wantName = want?.key.slice(prefix.length);
    if (
      !want ||
      !got ||
      want.revision !== got.revision ||
      wantName !== got.name ||
      (want.type === 'DELETE') !== (got.type === 'DELETED') ||
      (want.type === 'PUT' && want.value !== got.value)
    ) {
      return (
        `segment from ${s.from} to ${s.to}: event ${i} is ` +
        `${got ? `${got.type} ${got.name}@${got.revision}` : 'missing'}, etcd has ` +
        `${want ? `${want.type} ${wantName}@${want.revision}` : 'nothing more'} ` +
        `(${s.events.length} seen, ${expected.length} in etcd)`
      );
    }
  }
  return undefined;
}
