// The suite the bench measures, from @orch/suite's one description: etcd, NATS, one storage,
// the authorizer, two RBAC gateways, an AlwaysAllow one (for the authorization cost), an RBAC
// one auditing to a dead webhook (for the audit cost), an RBAC one without priority and
// fairness (for its cost) and two whose priority and fairness accounts alone, without the fleet
// (for the flood step), no controllers; in a temporary home whose logs/ is kept. The steps act as
// a user bound to cluster-admin, not as a member of system:masters.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueCertificate, loadCertificateAuthority } from '@orch/component-base/pki';
import type { ClusterPki } from '@orch/component-base/pki';
import { Launcher, describeSuite, launchSuite } from '@orch/suite';
import type { SuiteRole } from '@orch/suite';
import { Etcd3 } from 'etcd3';
import { BenchClient } from './client.js';
import type { Gateway } from './client.js';
import type { BenchContext } from './step.js';
import type { Report } from './report.js';
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
  /** Throws when a process of the suite has exited. */
  checkRunning(): void;
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
      { name: 'gateway-allow', authorizationMode: 'AlwaysAllow' },
      { name: 'gateway-audit', args: deadWebhookAuditArgs(home) },
      { name: 'gateway-noapf', args: ['--enable-priority-and-fairness=false'] },
      { name: 'gateway-nofleet-a', args: ['--enable-fleet-priority-and-fairness=false'] },
      { name: 'gateway-nofleet-b', args: ['--enable-fleet-priority-and-fairness=false'] },
    ],
    controllers: false,
    nodeFlags,
  });
  console.log(`logs: ${d.logDir}`);
  const launcher = new Launcher({ logDir: d.logDir });
  const pki = await launchSuite(d, launcher).catch((err: unknown) => {
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
  const processes = launcher.processes.map((p) => ({ name: p.name, pid: p.pid }));

  return {
    logDir: d.logDir,
    launcher,
    context: (report) => ({
      gateways: [gateway('gateway-a'), gateway('gateway-b')],
      allowGateway: gateway('gateway-allow'),
      auditGateway: gateway('gateway-audit'),
      noApfGateway: gateway('gateway-noapf'),
      noFleetGateways: [gateway('gateway-nofleet-a'), gateway('gateway-nofleet-b')],
      etcd,
      natsUrl: d.natsUrl,
      client,
      servingFiles: { ...pki.file('gateway'), caFile: pki.caFile },
      clusterCa: pki.file('ca'),
      processes,
      report,
    }),
    checkRunning() {
      const p = launcher.firstExited();
      if (p) throw new Error(`${p.name} exited (${p.exitReason()}); see ${p.logFile}`);
    },
    async stop(report) {
      if (opts.cpuProfDir) {
        await launcher.stop();
        const names = new Map(launcher.processes.map((p) => [p.pid, p.name]));
        report.notes.push(...summarizeProfiles(opts.cpuProfDir, names));
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
