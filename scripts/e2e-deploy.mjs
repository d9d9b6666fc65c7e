#!/usr/bin/env node
// make e2e-deploy: the highly available topology (deploy/compose/ha.yml) in real containers,
// under a steady load, through faults at the container level, one at a time.
//
//   1. a Docker engine (installed from Debian's packages and started when missing), stand-in
//      base images from Debian's packages (deploy/local-base/build.sh, debootstrap) unless
//      ORCH_DEPLOY_BASE=public, orch's image (make images), the topology up and healthy;
//   2. a load through the load balancer: writers creating and updating ConfigMaps, watchers
//      following them (each on its own connection, so on different gateways);
//   3. the faults, each held for a few seconds, then ended, then every container healthy again:
//      docker kill of each kind of container (gateway, storage, authorizer, admission,
//      certificates, controllers, an etcd member, a NATS node), docker pause of a gateway and of
//      the publishing storage replica, and docker network disconnect of a gateway, a storage
//      replica and an etcd member;
//   4. the checks: every acknowledged write is in etcd (read with etcdctl), every watcher saw
//      every change in order or got a 410 and relisted, every container healthy; and the
//      figures: writes, events, relists, the longest time a writer saw no success.
//   5. everything it started is removed (containers, volumes, network; images are kept).
//
// Environment: ORCH_DEPLOY_FAULT_SECONDS (how long a fault is held, default 6),
// ORCH_DEPLOY_KEEP=1 (leave the topology up at the end), DOCKER (the CLI).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const project = 'orch-e2e-deploy';
const faultMs = 1000 * (Number(process.env.ORCH_DEPLOY_FAULT_SECONDS) || 6);
const ns = 'deploy-load';
const log = (msg) =>
  process.stdout.write(`[e2e-deploy ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

const sh = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...opts,
  });
const tryRun = (cmd, args) => spawnSync(cmd, args, { cwd: repo, encoding: 'utf8' });

// ---- 1. engine, images, topology -------------------------------------------------------------

function dockerCli() {
  if (process.env.DOCKER) return process.env.DOCKER;
  // BuildKit needs buildx beside a recent CLI; Debian's docker.io CLI has it built in.
  if (tryRun('docker', ['buildx', 'version']).status === 0) return 'docker';
  return tryRun('/usr/bin/docker', ['--version']).status === 0 ? '/usr/bin/docker' : 'docker';
}

async function ensureEngine() {
  if (
    tryRun('dockerd', ['--version']).status !== 0 ||
    tryRun('docker-compose', ['version']).status !== 0
  ) {
    log('installing docker.io, docker-compose and debootstrap (apt-get)');
    sh('apt-get', ['install', '-y', '-q', 'docker.io', 'docker-compose', 'debootstrap'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: 'inherit',
    });
  }
  if (tryRun(docker, ['info']).status === 0) return;
  log('starting dockerd');
  spawn('dockerd', [], { detached: true, stdio: 'ignore' }).unref();
  for (let i = 0; i < 60; i++) {
    if (tryRun(docker, ['info']).status === 0) return;
    await sleep(500);
  }
  throw new Error('dockerd did not answer within 30 s');
}

const docker = dockerCli();
const compose = (...args) =>
  sh(
    'docker-compose',
    ['-f', 'deploy/compose/ha.yml', '--project-directory', '.', '-p', project, ...args],
    {
      env: composeEnv,
    }
  );
let composeEnv = process.env;

function containers() {
  const out = sh(docker, [
    'ps',
    '-a',
    '--filter',
    `label=com.docker.compose.project=${project}`,
    '--format',
    '{{.Names}}\t{{.Status}}',
  ]);
  return out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [name, status] = l.split('\t');
      return { name, status, service: name.replace(`${project}_`, '').replace(/_\d+$/, '') };
    });
}

/** Every long-running container up, and healthy where it has a health check. */
async function allHealthy(timeoutMs) {
  const started = Date.now();
  for (;;) {
    const bad = containers().filter(
      (c) =>
        c.service !== 'pki' &&
        (!c.status.startsWith('Up') || /health: starting|unhealthy/.test(c.status))
    );
    if (bad.length === 0) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      throw new Error(
        `not healthy after ${timeoutMs} ms: ${bad.map((c) => `${c.name} (${c.status})`).join(', ')}`
      );
    }
    await sleep(1000);
  }
}

// ---- the API through the load balancer ---------------------------------------------------------

let creds;
const agent = () => new Agent({ ...creds, keepAlive: false });

function api(method, path, body, { timeoutMs = 10_000, ag } = {}) {
  return new Promise((resolvePromise) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: 6443,
        method,
        path,
        agent: ag ?? agent(),
        headers: body ? { 'content-type': 'application/json' } : {},
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolvePromise({ status: res.statusCode, body: text ? JSON.parse(text) : undefined })
        );
        res.on('error', (err) => resolvePromise({ status: 0, error: err.message }));
      }
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolvePromise({ status: 0, error: err.message }));
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

// ---- 2. the load ---------------------------------------------------------------------------------

const acked = new Map(); // name -> resourceVersion of its last acknowledged write
const load = { writes: 0, failures: 0, lastSuccess: 0, longestGapMs: 0, gapDuring: '' };
let currentFault = 'none';
let stopLoad = false;

async function writer(id) {
  for (let n = 0; !stopLoad; n++) {
    const name = `w${id}-${n}`;
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '0' } };
    for (const [method, path, body] of [
      ['POST', `/api/v1/namespaces/${ns}/configmaps`, cm],
      ['PUT', `/api/v1/namespaces/${ns}/configmaps/${name}`, { ...cm, data: { v: '1' } }],
    ]) {
      let res;
      for (;;) {
        res = await api(method, path, body);
        // A create that was stored but not answered comes back as 409: read what is there.
        if (res.status === 409 && method === 'POST') res = await api('GET', path + `/${name}`);
        if (res.status === 200 || res.status === 201) break;
        load.failures += 1;
        if (stopLoad) return;
        await sleep(200);
      }
      const now = Date.now();
      if (load.lastSuccess && now - load.lastSuccess > load.longestGapMs) {
        load.longestGapMs = now - load.lastSuccess;
        load.gapDuring = currentFault;
      }
      load.lastSuccess = now;
      load.writes += 1;
      acked.set(name, res.body.metadata.resourceVersion);
    }
    await sleep(50);
  }
}

const watchers = [];
function watcher(id) {
  const w = {
    id,
    seen: new Map(),
    lastRv: '0',
    events: 0,
    relists: 0,
    reconnects: 0,
    outOfOrder: 0,
    done: false,
  };
  watchers.push(w);
  const relist = async () => {
    for (;;) {
      const res = await api('GET', `/api/v1/namespaces/${ns}/configmaps`);
      if (res.status === 200) {
        for (const item of res.body.items)
          w.seen.set(item.metadata.name, item.metadata.resourceVersion);
        w.lastRv = res.body.metadata.resourceVersion;
        return;
      }
      await sleep(500);
    }
  };
  const follow = async () => {
    await relist();
    while (!w.done) {
      const outcome = await new Promise((resolvePromise) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: 6443,
            path: `/api/v1/namespaces/${ns}/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion=${w.lastRv}`,
            agent: agent(),
          },
          (res) => {
            if (res.statusCode !== 200) {
              res.resume();
              resolvePromise(res.statusCode === 410 ? 'gone' : 'ended');
              return;
            }
            let buf = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => {
              buf += chunk;
              let nl;
              while ((nl = buf.indexOf('\n')) >= 0) {
                const line = buf.slice(0, nl);
                buf = buf.slice(nl + 1);
                if (!line.trim()) continue;
                const ev = JSON.parse(line);
                if (ev.type === 'ERROR') {
                  req.destroy();
                  resolvePromise(ev.object?.code === 410 ? 'gone' : 'ended');
                  return;
                }
                const rv = ev.object.metadata.resourceVersion;
                if (BigInt(rv) <= BigInt(w.lastRv) && ev.type !== 'BOOKMARK') w.outOfOrder += 1;
                w.lastRv = rv;
                if (ev.type === 'BOOKMARK') continue;
                w.events += 1;
                w.seen.set(ev.object.metadata.name, rv);
              }
            });
            res.on('end', () => resolvePromise('ended'));
            res.on('error', () => resolvePromise('ended'));
          }
        );
        req.on('error', () => resolvePromise('ended'));
        req.end();
        w.stop = () => req.destroy();
      });
      if (w.done) break;
      if (outcome === 'gone') {
        w.relists += 1;
        await relist();
      } else {
        w.reconnects += 1;
        await sleep(200);
      }
    }
  };
  w.running = follow();
  return w;
}

// ---- 3. faults -------------------------------------------------------------------------------------

function containerOf(service) {
  const c = containers().find((x) => x.service === service && x.status.startsWith('Up'));
  if (!c) throw new Error(`no running container of ${service}`);
  return c.name;
}

/** The storage replica that publishes: its identity in the publisher election, by hostname. */
function publishingStorage() {
  const etcd = containerOf('etcd-1');
  const keys = sh(docker, ['exec', etcd, 'etcdctl', 'get', '--prefix', '', '--keys-only']).split(
    '\n'
  );
  const key = keys.find((k) => k.includes('orch-storage-publisher'));
  const identity = key
    ? sh(docker, ['exec', etcd, 'etcdctl', 'get', '--print-value-only', key]).trim()
    : '';
  for (const c of containers().filter((x) => x.service === 'storage')) {
    const host = sh(docker, ['inspect', '-f', '{{.Config.Hostname}}', c.name]).trim();
    if (identity.includes(host)) return c.name;
  }
  return containerOf('storage');
}

const network = () => `${project}_default`;

const faults = [
  ...[
    'gateway',
    'storage',
    'authorizer',
    'admission',
    'certificates',
    'controllers',
    'etcd-2',
    'nats-2',
  ].map((s) => ({
    name: `kill ${s}`,
    pick: () => containerOf(s),
    start: (c) => sh(docker, ['kill', c]),
    end: (c) => sh(docker, ['start', c]),
  })),
  {
    name: 'pause gateway',
    pick: () => containerOf('gateway'),
    start: (c) => sh(docker, ['pause', c]),
    end: (c) => sh(docker, ['unpause', c]),
  },
  {
    name: 'pause publishing storage',
    pick: publishingStorage,
    start: (c) => sh(docker, ['pause', c]),
    end: (c) => sh(docker, ['unpause', c]),
  },
  ...['gateway', 'storage', 'etcd-3'].map((s) => ({
    name: `partition ${s}`,
    pick: () => containerOf(s),
    start: (c) => sh(docker, ['network', 'disconnect', network(), c]),
    end: (c) => sh(docker, ['network', 'connect', '--alias', s, network(), c]),
  })),
];

// ---- main --------------------------------------------------------------------------------------------

const results = [];
const startedAll = Date.now();
let failed = false;
try {
  await ensureEngine();
  if (process.env.ORCH_DEPLOY_BASE !== 'public') {
    log('stand-in base images (deploy/local-base/build.sh)');
    sh('sh', ['deploy/local-base/build.sh'], {
      env: { ...process.env, DOCKER: docker },
      stdio: 'inherit',
    });
    composeEnv = {
      ...process.env,
      ETCD_IMAGE: 'orch-local/etcd:bookworm',
      NATS_IMAGE: 'orch-local/nats:bookworm',
      HAPROXY_IMAGE: 'orch-local/haproxy:bookworm',
    };
  }
  log('orch image (make images)');
  const made = sh(
    'make',
    [
      '-s',
      'images',
      `DOCKER=${docker}`,
      ...(process.env.ORCH_DEPLOY_BASE !== 'public'
        ? ['NODE_IMAGE=orch-local/node:20-bookworm-slim']
        : []),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    }
  );
  const sizes = [
    made.trim().split('\n').at(-1),
    ...sh(docker, ['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}: {{.Size}}'])
      .split('\n')
      .filter((l) => l.startsWith('orch-local/')),
  ];
  log(`images: ${sizes.join('; ')}`);

  compose('down', '-v', '--remove-orphans');
  const upAt = Date.now();
  compose('up', '-d');
  await allHealthy(180_000);
  log(
    `topology healthy ${((Date.now() - upAt) / 1000).toFixed(0)} s after up (${containers().length} containers)`
  );

  const pkiDir = sh(docker, [
    'volume',
    'inspect',
    '-f',
    '{{.Mountpoint}}',
    `${project}_pki`,
  ]).trim();
  creds = {
    ca: readFileSync(join(pkiDir, 'ca.crt')),
    cert: readFileSync(join(pkiDir, 'admin.crt')),
    key: readFileSync(join(pkiDir, 'admin.key')),
  };
  const kubectl = tryRun('kubectl', [
    '--kubeconfig',
    join(pkiDir, 'admin.kubeconfig'),
    'get',
    'ns',
  ]);
  log(`kubectl get ns through the load balancer: exit ${kubectl.status}`);
  if (kubectl.status !== 0) throw new Error(`kubectl failed: ${kubectl.stderr}`);
  const created = await api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  if (created.status !== 201) throw new Error(`namespace: ${created.status}`);

  for (let i = 0; i < 3; i++) watcher(i);
  const writers = [0, 1, 2, 3].map((i) => writer(i));
  await sleep(5000);

  for (const fault of faults) {
    const target = fault.pick();
    const before = load.writes;
    currentFault = fault.name;
    log(`${fault.name}: ${target}`);
    fault.start(target);
    await sleep(faultMs);
    const during = load.writes - before;
    fault.end(target);
    const recoverMs = await allHealthy(120_000);
    currentFault = 'none';
    results.push({
      fault: fault.name,
      target,
      writesDuring: during,
      recoveredS: (recoverMs / 1000).toFixed(0),
    });
    await sleep(2000);
  }

  stopLoad = true;
  await Promise.all(writers);
  // Let the watchers catch up with the last write, then stop them.
  const lastRv = [...acked.values()].reduce((a, b) => (BigInt(a) > BigInt(b) ? a : b), '0');
  for (let i = 0; i < 60 && watchers.some((w) => BigInt(w.lastRv) < BigInt(lastRv)); i++)
    await sleep(500);
  for (const w of watchers) {
    w.done = true;
    w.stop?.();
  }

  // ---- 4. checks ----
  const etcd = containerOf('etcd-1');
  const stored = new Map();
  const dump = sh(
    docker,
    ['exec', etcd, 'etcdctl', 'get', '--prefix', `/registry/core/configmaps/${ns}/`, '-w', 'json'],
    {
      maxBuffer: 256 * 1024 * 1024,
    }
  );
  for (const kv of JSON.parse(dump).kvs ?? []) {
    const key = Buffer.from(kv.key, 'base64').toString();
    stored.set(key.split('/').at(-1), String(kv.mod_revision));
  }
  const lost = [...acked].filter(
    ([name, rv]) => !stored.has(name) || BigInt(stored.get(name)) < BigInt(rv)
  );
  const missed = watchers.map(
    (w) =>
      [...acked].filter(([name, rv]) => !w.seen.has(name) || BigInt(w.seen.get(name)) < BigInt(rv))
        .length
  );

  log('');
  log(
    'fault                          target                               writes during  healthy again'
  );
  for (const r of results) {
    log(
      `${r.fault.padEnd(30)} ${r.target.padEnd(36)} ${String(r.writesDuring).padStart(13)}  ${String(r.recoveredS).padStart(11)} s`
    );
  }
  log('');
  log(
    `acknowledged writes ${load.writes} (${acked.size} objects), failed attempts ${load.failures}, longest time without a successful write ${load.longestGapMs} ms (during: ${load.gapDuring})`
  );
  for (const w of watchers) {
    log(
      `watcher ${w.id}: ${w.events} events, ${w.relists} relists after 410, ${w.reconnects} reconnects, ${w.outOfOrder} out of order, ${missed[w.id]} writes not seen`
    );
  }
  log(`acknowledged writes missing from etcd: ${lost.length}`);
  failed = lost.length > 0 || missed.some((m) => m > 0) || watchers.some((w) => w.outOfOrder > 0);
  await allHealthy(60_000);
  log(
    `every container healthy at the end; ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - startedAll) / 1000).toFixed(0)} s`
  );
} catch (err) {
  failed = true;
  log(`error: ${err.stack ?? err}`);
} finally {
  stopLoad = true;
  for (const w of watchers) {
    w.done = true;
    w.stop?.();
  }
  if (process.env.ORCH_DEPLOY_KEEP !== '1') {
    try {
      compose('down', '-v', '--remove-orphans');
      log('removed the topology (containers, volumes, network)');
    } catch (err) {
      log(`cleanup failed: ${err.message}`);
    }
  }
}
process.exit(failed ? 1 : 0);
