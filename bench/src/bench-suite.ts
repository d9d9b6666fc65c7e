// The suite the bench measures, from @orch/suite's one description: etcd, NATS, one storage,
// the authorizer, two RBAC gateways, no controllers; in a temporary home whose logs/ is kept.
// The gateways a single step compares against (extraGateways: an AlwaysAllow one, one auditing
// to a dead webhook, one without priority and fairness, two whose priority and fairness accounts
// alone, two fresh ones whose memory per idle watch is measured) are described with the suite but run only for the step that asks for them: each
// gateway keeps its caches from every change, so an idle one would add its share to every
// other step's CPU per operation, which a deployment of two gateways does not pay. The steps act
// as a user bound to cluster-admin, not as a member of system:masters.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueCertificate, loadCertificateAuthority } from '@orch/component-base/pki';
import type { ClusterPki } from '@orch/component-base/pki';
import { Launcher, describeSuite, launchSuite } from '@orch/suite';
import type { ProcessSpec, SuiteRole } from '@orch/suite';
import { Etcd3 } from 'etcd3';
import { BenchClient } from './client.js';
import type { Gateway } from './client.js';
import type { BenchContext, ExtraGateway } from './step.js';
import type { Report } from './report.js';
import { measuredWindows } from './cpu.js';
import { summarizeProfiles } from './profile-summary.js';

export interface BenchSuiteOptions {
  /** BENCH_CPU_PROF: storage and the gateways write V8 CPU profiles into this directory. */
  cpuProfDir?: string;
  /** BENCH_NODE_FLAGS: Node flags for every service. */
  nodeFlags: string[];
}

export interface BenchSuite {
  logDir: string;
  launcher: Launcher;
  /** The context the steps get (without the report). */
  context(report: Report): BenchContext;
  /** Throws when a process of the suite has exited (but for an extra gateway stopped after its step). */
  checkRunning(): void;
  /** Stops the extra gateways a step started (each starts again if a later step asks). */
  stopExtraGateways(): Promise<void>;
  /**
   * Stops the suite (gracefully when profiling, so the profiles are written, and summarised into
   * `report`), closes the clients and removes all but the logs.
   */
  stop(report: Report): Promise<void>;
}

export async function startBenchSuite(opts: BenchSuiteOptions): Promise<BenchSuite> {
  const home = await mkdtemp(join(tmpdir(), 'orch-bench-'));
  const prof = opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`] : [];
  const nodeFlags: Partial<Record<SuiteRole, string[]>> = {
    storage: [...prof, ...opts.nodeFlags],
    authorizer: opts.nodeFlags,
    admission: [...prof, ...opts.nodeFlags],
    gateway: [...prof, ...opts.nodeFlags],
  };
  const d = await describeSuite({
    home,
    gateways: [
      { name: 'gateway-a' },
      { name: 'gateway-b' },
      // extraGateways, started by the steps that ask for them:
      { name: 'gateway-allow', authorizationMode: 'AlwaysAllow' },
      { name: 'gateway-audit', args: deadWebhookAuditArgs(home) },
      { name: 'gateway-noapf', args: ['--enable-priority-and-fairness=false'] },
      { name: 'gateway-nofleet-a', args: ['--enable-fleet-priority-and-fairness=false'] },
      { name: 'gateway-nofleet-b', args: ['--enable-fleet-priority-and-fairness=false'] },
      { name: 'gateway-fresh-h2' },
      { name: 'gateway-fresh-h1' },
    ],
    controllers: false,
    nodeFlags,
  });
  console.log(`logs: ${d.logDir}`);
  const extras = new Map<string, ProcessSpec>();
  for (const spec of d.stages.flat()) {
    if ((extraGateways as readonly string[]).includes(spec.name)) extras.set(spec.name, spec);
  }
  // Without the extra gateways, and without the readiness checks made through them (the
  // certificates service is ready once every gateway reaches it).
  const extraUrls = d.gateways.filter((g) => extras.has(g.name)).map((g) => `${g.url}/`);
  const throughExtra = (r: ProcessSpec['ready'][number]): boolean =>
    'url' in r && extraUrls.some((u) => r.url.startsWith(u));
  const stages = d.stages
    .map((stage) =>
      stage
        .filter((spec) => !extras.has(spec.name))
        .map((spec) => ({ ...spec, ready: spec.ready.filter((r) => !throughExtra(r)) }))
    )
    .filter((stage) => stage.length > 0);
  const launcher = new Launcher({ logDir: d.logDir });
  const pki = await launchSuite({ ...d, stages }, launcher).catch((err: unknown) => {
    launcher.killAll();
    throw err;
  });
  const client = await benchUserClient(pki, d.gateways[0]!.url);
  const etcd = new Etcd3({ hosts: d.etcdUrl });
  const gateway = (name: string): Gateway => ({
    name,
    url: d.gateways.find((g) => g.name === name)!.url,
    pid: launcher.get(name)!.pid,
  });
  /** Extra gateways running, and those stopped after their step. */
  const running = new Set<string>();
  const stopped = new Set<string>();
  const extraGateway = async (name: ExtraGateway): Promise<Gateway> => {
    if (!running.has(name)) {
      const p = launcher.get(name);
      if (p) await launcher.waitReady(launcher.respawn(name));
      else await launcher.startStage([extras.get(name)!]);
      running.add(name);
      stopped.delete(name);
    }
    return gateway(name);
  };
  const alive = () => launcher.processes.filter((p) => !stopped.has(p.name));

  return {
    logDir: d.logDir,
    launcher,
    context: (report) => ({
      gateways: [gateway('gateway-a'), gateway('gateway-b')],
      extraGateway,
      etcd,
      natsUrl: d.natsUrl,
      client,
      servingFiles: { ...pki.file('gateway'), caFile: pki.caFile },
      clusterCa: pki.file('ca'),
      get processes() {
        return alive().map((p) => ({ name: p.name, pid: p.pid }));
      },
      report,
    }),
    checkRunning() {
      const p = alive().find((p) => p.exitReason() !== undefined);
      if (p) throw new Error(`${p.name} exited (${p.exitReason()}); see ${p.logFile}`);
    },
    async stopExtraGateways() {
      for (const name of running) {
        await launcher.get(name)!.stop('SIGTERM');
        running.delete(name);
        stopped.add(name);
      }
    },
    async stop(report) {
      if (opts.cpuProfDir) {
        await launcher.stop();
        const names = new Map(launcher.processes.map((p) => [p.pid, p.name]));
        report.notes.push(...summarizeProfiles(opts.cpuProfDir, names, measuredWindows));
      } else {
        launcher.killAll();
      }
      etcd.close();
      await client.close();
      await Promise.all(launcher.processes.map((p) => p.exited));
      // Keys stay nowhere: the PKI and the kubeconfigs (they embed theirs) go with etcd's data.
      for (const k of Object.values(d.kubeconfigs)) await rm(k.path, { force: true });
      await rm(d.pkiDir, { recursive: true, force: true });
      await rm(d.etcdDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The client the steps use: a user bound to `cluster-admin` through RBAC, not the admin of
 * `system:masters`, whom every gateway allows before asking the authorizer (upstream's
 * privileged groups authorizer): the bench measures the authorization a user's request gets.
 */
async function benchUserClient(pki: ClusterPki, gatewayUrl: string): Promise<BenchClient> {
  const ca = pki.file('ca');
  const authority = await loadCertificateAuthority(
    readFileSync(ca.certFile, 'utf8'),
    readFileSync(ca.keyFile, 'utf8')
  );
  const group = 'orch:bench';
  const pair = await issueCertificate(authority, {
    commonName: 'bench',
    organizations: [group],
    usages: ['client'],
  });
  const admin = pki.file('admin');
  const adminClient = new BenchClient({
    ca: readFileSync(pki.caFile),
    cert: readFileSync(admin.certFile),
    key: readFileSync(admin.keyFile),
  });
  const user = new BenchClient({
    ca: readFileSync(pki.caFile),
    cert: Buffer.from(pair.certPem),
    key: Buffer.from(pair.keyPem),
  });
  try {
    await adminClient.mustCall(
      `${gatewayUrl}/apis/rbac.authorization.orch.io/v1/clusterrolebindings`,
      'POST',
      {
        apiVersion: 'rbac.authorization.orch.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'bench-cluster-admin' },
        roleRef: {
          apiGroup: 'rbac.authorization.orch.io',
          kind: 'ClusterRole',
          name: 'cluster-admin',
        },
        subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: group }],
      }
    );
  } finally {
    await adminClient.close();
  }
  // The authorizer follows bindings through its informer: wait until it allows the user.
  for (let i = 0; ; i++) {
    const r = await user.call(`${gatewayUrl}/api/v1/namespaces`, 'GET');
    if (r.status === 200) return user;
    if (i === 100) throw new Error(`the bench user is not allowed: ${r.status} ${r.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * An audit policy recording every request at Metadata and a webhook backend whose server is
 * down (nothing listens on port 1): the audit step measures what that costs a request.
 */
function deadWebhookAuditArgs(home: string): string[] {
  const policy = join(home, 'audit-policy.yaml');
  writeFileSync(policy, 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
  const kubeconfig = join(home, 'audit-webhook.kubeconfig');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'dead', cluster: { server: 'https://127.0.0.1:1/audit' } }],
      contexts: [{ name: 'dead', context: { cluster: 'dead', user: '' } }],
      'current-context': 'dead',
    })
  );
  return [`--audit-policy-file=${policy}`, `--audit-webhook-config-file=${kubeconfig}`];
}

/** The gateways one step each compares against, started when it asks (BenchContext.extraGateway). */
export const extraGateways = [
  'gateway-allow',
  'gateway-audit',
  'gateway-noapf',
  'gateway-nofleet-a',
  'gateway-nofleet-b',
  'gateway-fresh-h2',
  'gateway-fresh-h1',
] as const;
