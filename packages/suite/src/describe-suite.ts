// The one description of the running suite: which processes, in which order, with which flags,
// files and environment, and how each one's readiness is known. `make run` (scripts/run.mjs),
// the tests' startSuite (@orch/testing) and the bench all start what this returns, through
// launchSuite. A new process, flag or kubeconfig is one line here.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adminCertName,
  adminUserName,
  authorizerClientCertName,
  certFiles,
  componentUserName,
} from '@orch/component-base/pki';
import type { CertificateFiles } from '@orch/component-base/pki';
import type { TlsFiles } from '@orch/component-base/grpc-server';
import { findExecutable } from './find-executable.js';
import { freePorts, portIsFree } from './free-port.js';
import type { ProcessSpec, Readiness } from './process-spec.js';
import { serviceEntry } from './service-entry.js';
import type { NodeService } from './service-entry.js';

export type SuiteRole =
  | 'etcd'
  | 'nats'
  | 'storage'
  | 'authorizer'
  | 'admission'
  | 'gateway'
  | 'controllers'
  | 'certificates';
export type AuthorizationMode = 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';

export interface GatewayOptions {
  /** Process and log name; default `gateway` (one) or `gateway-<i>`. */
  name?: string;
  /** Default: the suite's authorizationMode. */
  authorizationMode?: AuthorizationMode;
  /** Flags for this gateway only, after the role's. */
  args?: string[];
}

export interface SuiteOptions {
  /** State: pki/, etcd-data/ (kept across starts), logs/, the kubeconfigs. */
  home: string;
  /** How many gateways (default 1), or one entry per gateway. */
  gateways?: number | GatewayOptions[];
  /** Port of the first gateway, the next ones following; default: free ports. */
  gatewayPort?: number;
  /** Storage replicas on etcd (default 1); gateway i talks to replica i mod n. */
  storageReplicas?: number;
  /** The gateways' --authorization-mode (default RBAC, answered by the authorizer service). */
  authorizationMode?: AuthorizationMode;
  /** Start the controllers (default true). */
  controllers?: boolean;
  /**
   * Start the certificates service (default true). Without it the gateways get no
   * --certificates-servers: CSR writes answer 503, every other kind is unaffected.
   */
  certificates?: boolean;
  /** Extra flags per role, after the suite's own (a later flag wins). */
  args?: Partial<Record<SuiteRole, string[]>>;
  /** Node flags per Node service role (`--cpu-prof`, `--max-semi-space-size=64`...). */
  nodeFlags?: Partial<Record<SuiteRole, string[]>>;
  /** Where the built services are (`services/<name>/dist/main.bundle.js`); default this repository. */
  repoRoot?: string;
}

export interface KubeconfigSpec {
  path: string;
  server: string;
  /** Name of the PKI certificate it carries (`<cert>.crt`, `<cert>.key`). */
  cert: string;
  /** Name of its user entry. */
  user: string;
}

export interface GatewayEndpoint {
  name: string;
  url: string;
  port: number;
  authorizationMode: AuthorizationMode;
}

export interface SuiteDescription {
  /** The repository whose services' bundles run. */
  repoRoot: string;
  home: string;
  pkiDir: string;
  logDir: string;
  etcdDataDir: string;
  etcdUrl: string;
  natsUrl: string;
  natsMonitorUrl: string;
  /** host:port of each storage replica. */
  storage: string[];
  /** host:port of the authorizer. */
  authorizer: string;
  /** host:port of the admission service. */
  admission: string;
  /** host:port of the certificates service. */
  certificates: string;
  gateways: GatewayEndpoint[];
  /** The operational server of each process but etcd, NATS and the gateways, by process name. */
  operational: Record<string, string>;
  /** Written before any process starts. `admin` targets gateway 0, `admin-<i>` gateway i. */
  kubeconfigs: Record<string, KubeconfigSpec>;
  /** An admin kubeconfig path per gateway. */
  adminKubeconfigs: string[];
  /** Started one stage after the other; the processes of a stage together. */
  stages: ProcessSpec[][];
}

const host = '127.0.0.1';

/**
 * What a gateway's flags get when the suite runs without the controllers: without the service
 * account controller no namespace gets its `default` ServiceAccount, and the ServiceAccount
 * admission plugin (on by default) would refuse every pod, so it is turned off, as upstream's
 * integration test servers do (`--disable-admission-plugins=ServiceAccount`), unless the flags
 * enable it. `args` are the gateway's extra flags in order (the last of a flag wins); the answer
 * is the flag to append (what they disable and ServiceAccount), or nothing.
 */
export function serviceAccountAdmissionOff(args: readonly string[]): string[] {
  const last = (name: string): string | undefined =>
    args
      .filter((a) => a.startsWith(`--${name}=`))
      .at(-1)
      ?.slice(name.length + 3);
  const names = (v: string | undefined): string[] =>
    (v ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
  const enabled = names(last('enable-admission-plugins'));
  const disabled = names(last('disable-admission-plugins'));
  if (enabled.includes('ServiceAccount') || disabled.includes('ServiceAccount')) return [];
  return [`--disable-admission-plugins=${[...disabled, 'ServiceAccount'].join(',')}`];
}
const defaultRepoRoot = resolve(fileURLToPath(import.meta.url), '../../../..');

export async function describeSuite(opts: SuiteOptions): Promise<SuiteDescription> {
  const home = resolve(opts.home);
  const repo = opts.repoRoot ?? defaultRepoRoot;
  const pkiDir = join(home, 'pki');
  const logDir = join(home, 'logs');
  const etcdDataDir = join(home, 'etcd-data');
  const cert = (name: string): CertificateFiles => certFiles(pkiDir, name);
  const ca = join(pkiDir, 'ca.crt');
  const tls = (name: string): TlsFiles => ({ caFile: ca, ...cert(name) });

  const gatewayOpts: GatewayOptions[] = Array.isArray(opts.gateways)
    ? opts.gateways
    : Array.from({ length: opts.gateways ?? 1 }, () => ({}));
  if (gatewayOpts.length === 0) throw new Error('the suite needs at least one gateway');
  const first = opts.gatewayPort;
  const fixedPorts = first === undefined ? [] : gatewayOpts.map((_, i) => first + i);
  for (const port of fixedPorts) {
    if (port > 65535) throw new Error(`gateway port ${port} is out of range`);
    if (!(await portIsFree(port))) {
      throw new Error(`${host}:${port} is already in use (another orch running?)`);
    }
  }
  const replicas = opts.storageReplicas ?? 1;
  const ports = await freePorts(
    11 + 2 * replicas + (fixedPorts.length ? 0 : gatewayOpts.length),
    fixedPorts
  );
  const take = (n: number): number[] => ports.splice(0, n);
  const [etcdPort, etcdPeerPort, natsPort, natsMonitorPort] = take(4) as [
    number,
    number,
    number,
    number,
  ];
  const [authorizerPort, authorizerOperationalPort] = take(2) as [number, number];
  const [admissionPort, admissionOperationalPort] = take(2) as [number, number];
  const [certificatesPort, certificatesOperationalPort] = take(2) as [number, number];
  const [controllersOperationalPort] = take(1) as [number];
  const storagePorts = take(replicas);
  const storageOperationalPorts = take(replicas);
  const gatewayPorts = fixedPorts.length ? fixedPorts : take(gatewayOpts.length);

  const etcdUrl = `http://${host}:${etcdPort}`;
  const natsUrl = `nats://${host}:${natsPort}`;
  const storage = storagePorts.map((p) => `${host}:${p}`);
  const authorizer = `${host}:${authorizerPort}`;
  const admission = `${host}:${admissionPort}`;
  const certificates = `${host}:${certificatesPort}`;
  const gateways: GatewayEndpoint[] = gatewayOpts.map((g, i) => ({
    name: g.name ?? (gatewayOpts.length === 1 ? 'gateway' : `gateway-${i}`),
    url: `https://${host}:${gatewayPorts[i]}`,
    port: gatewayPorts[i]!,
    authorizationMode: g.authorizationMode ?? opts.authorizationMode ?? 'RBAC',
  }));

  // Kubeconfigs, one line each: file name, certificate, user, server (default gateway 0).
  const kubeconfig = (name: string, certName: string, user: string, at = gateways[0]!.url) => ({
    path: join(home, `${name}.kubeconfig`),
    server: at,
    cert: certName,
    user,
  });
  const controllers = opts.controllers ?? true;
  const kubeconfigs: Record<string, KubeconfigSpec> = {
    admin: kubeconfig('admin', adminCertName, adminUserName),
    authorizer: kubeconfig('authorizer', authorizerClientCertName, componentUserName('authorizer')),
    ...(controllers
      ? { controllers: kubeconfig('controllers', 'controllers', 'controllers') }
      : {}),
    certificates: kubeconfig('certificates', 'certificates', componentUserName('certificates')),
    // the operational servers' delegated authentication and authorization (TokenReview,
    // SubjectAccessReview) of the services that have no kubeconfig of their own
    storage: kubeconfig('storage', 'storage', componentUserName('storage')),
    admission: kubeconfig('admission', 'admission', componentUserName('admission')),
  };
  for (const [i, g] of gateways.entries()) {
    if (i === 0) continue;
    kubeconfigs[`admin-${i}`] = kubeconfig(`admin-${i}`, adminCertName, adminUserName, g.url);
  }
  const adminKubeconfigs = gateways.map(
    (_, i) => kubeconfigs[i === 0 ? 'admin' : `admin-${i}`]!.path
  );

  const extra = (role: SuiteRole): string[] => opts.args?.[role] ?? [];
  /** One of the suite's Node services, from its bundle; `own`: its flags alone. */
  const service = (
    role: NodeService,
    name: string,
    flags: string[],
    ready: Readiness[],
    timeoutMs: number,
    own: string[] = []
  ): ProcessSpec => ({
    name,
    role,
    command: process.execPath,
    args: [
      ...(opts.nodeFlags?.[role] ?? []),
      serviceEntry(repo, role),
      ...flags,
      ...extra(role),
      ...own,
    ],
    ready,
    timeoutMs,
  });
  /** Serving certificate, its key and the CA that clients must chain to. */
  const serving = (name: string): string[] => [
    `--tls-cert-file=${cert(name).certFile}`,
    `--tls-private-key-file=${cert(name).keyFile}`,
    `--client-ca-file=${ca}`,
  ];
  /** The operational server's authentication and authorization, through a kubeconfig. */
  const delegated = (kubeconfigName: string): string[] => [
    `--authentication-kubeconfig=${kubeconfigs[kubeconfigName]!.path}`,
    `--authorization-kubeconfig=${kubeconfigs[kubeconfigName]!.path}`,
  ];
  /** The operational server of a gRPC service: its own port, the gRPC serving certificate. */
  const operationalBeside = (port: number, kubeconfigName: string): string[] => [
    `--operational-bind-address=${host}`,
    `--operational-secure-port=${port}`,
    ...delegated(kubeconfigName),
  ];
  const asAdmin = tls(adminCertName);
  const withCertificates = opts.certificates ?? true;
  const backends = {
    repoRoot: repo,
    pkiDir,
    natsUrl,
    authorizer,
    admission,
    ...(withCertificates ? { certificates } : {}),
  };

  const stages: ProcessSpec[][] = [
    [
      etcdProcess(
        { dataDir: etcdDataDir, clientPort: etcdPort, peerPort: etcdPeerPort },
        extra('etcd')
      ),
      natsProcess({ port: natsPort, monitorPort: natsMonitorPort }, extra('nats')),
    ],
    // storage: the only etcd client; its gRPC health is SERVING while etcd answers.
    storagePorts.map((port, i) =>
      service(
        'storage',
        replicas === 1 ? 'storage' : `storage-${i}`,
        [
          `--etcd-servers=${etcdUrl}`,
          `--nats-url=${natsUrl}`,
          `--bind-address=${host}`,
          `--secure-port=${port}`,
          ...operationalBeside(storageOperationalPorts[i]!, 'storage'),
          ...serving('storage'),
          `--identity=storage-${i}`,
        ],
        [{ kind: 'grpc-health', address: storage[i]!, tls: tls('storage') }],
        30_000
      )
    ),
    // authorizer: SERVING once its RBAC caches are synced; it then writes the bootstrap policy
    // through the first gateway (--kubeconfig), whose /readyz waits for that. admission: the
    // service-side admission plugins, SERVING once its namespaces informer is synced.
    [
      service(
        'authorizer',
        'authorizer',
        [
          `--storage-servers=${storage.join(',')}`,
          `--nats-url=${natsUrl}`,
          `--bind-address=${host}`,
          `--secure-port=${authorizerPort}`,
          ...operationalBeside(authorizerOperationalPort, 'authorizer'),
          ...serving('authorizer'),
          `--kubeconfig=${kubeconfigs['authorizer']!.path}`,
        ],
        [{ kind: 'grpc-health', address: authorizer, tls: tls('authorizer') }],
        60_000
      ),
      service(
        'admission',
        'admission',
        [
          `--storage-servers=${storage.join(',')}`,
          `--nats-url=${natsUrl}`,
          `--bind-address=${host}`,
          `--secure-port=${admissionPort}`,
          ...operationalBeside(admissionOperationalPort, 'admission'),
          ...serving('admission'),
        ],
        [{ kind: 'grpc-health', address: admission, tls: tls('admission') }],
        60_000
      ),
    ],
    // gateways: ready when /readyz answers and the system namespaces exist.
    gateways.map((g, i) =>
      gatewayProcess({
        ...backends,
        name: g.name,
        port: g.port,
        url: g.url,
        authorizationMode: g.authorizationMode,
        // every replica, this gateway's own first (gateway i prefers replica i)
        storage: storage.map((_, k) => storage[(i + k) % storage.length]!),
        args: [
          ...extra('gateway'),
          ...(gatewayOpts[i]!.args ?? []),
          ...(controllers
            ? []
            : serviceAccountAdmissionOff([...extra('gateway'), ...(gatewayOpts[i]!.args ?? [])])),
        ],
        nodeFlags: opts.nodeFlags?.gateway ?? [],
      })
    ),
  ];
  // certificates: the gateways' checks of CertificateSigningRequest writes (gRPC, asking the
  // authorizer) and the certificate controllers through the public API (--kubeconfig); after the
  // gateways, which it reads through, beside the controllers. A gateway refuses CSR writes (503)
  // until it answers.
  const afterGateways: ProcessSpec[] = [];
  if (withCertificates) {
    afterGateways.push(
      service(
        'certificates',
        'certificates',
        [
          `--bind-address=${host}`,
          `--secure-port=${certificatesPort}`,
          ...operationalBeside(certificatesOperationalPort, 'certificates'),
          ...serving('certificates'),
          `--authorizer-servers=${authorizer}`,
          `--kubeconfig=${kubeconfigs['certificates']!.path}`,
          // its controllers: the built-in signers issue from the cluster CA; the bootstrap
          // controllers (off by default upstream) on, as kubeadm turns them on, for a node join
          `--cluster-signing-cert-file=${cert('ca').certFile}`,
          `--cluster-signing-key-file=${cert('ca').keyFile}`,
          '--controllers=*,bootstrapsigner,tokencleaner',
        ],
        [
          { kind: 'grpc-health', address: certificates, tls: tls('certificates') },
          // Ready once every gateway reaches it too (a gateway that tried before it listened
          // waits out its reconnect backoff, up to 3 s, refusing CSR writes meanwhile).
          ...gateways.map((g): Readiness => ({
            kind: 'https',
            url: `${g.url}/readyz/certificates-service`,
            tls: asAdmin,
          })),
        ],
        60_000
      )
    );
  }
  stages.push(afterGateways);
  // controllers: through the public API with their own certificate; their only endpoint is the
  // operational server, which says nothing of the controllers: a moment's run shows that they
  // started. The token controller signs with the key the
  // gateways verify service-account tokens with (their --tls-private-key-file, as kubeadm gives
  // kube-controller-manager the apiserver's sa.key).
  if (controllers) {
    afterGateways.push(
      service(
        'controllers',
        'controllers',
        [
          `--kubeconfig=${kubeconfigs['controllers']!.path}`,
          `--service-account-private-key-file=${cert('gateway').keyFile}`,
          `--bind-address=${host}`,
          `--secure-port=${controllersOperationalPort}`,
          ...serving('controllers'),
          ...delegated('controllers'),
        ],
        [{ kind: 'running', forMs: 1500 }],
        10_000
      )
    );
  }

  return {
    repoRoot: repo,
    home,
    pkiDir,
    logDir,
    etcdDataDir,
    etcdUrl,
    natsUrl,
    natsMonitorUrl: `http://${host}:${natsMonitorPort}`,
    storage,
    authorizer,
    admission,
    certificates,
    gateways,
    operational: {
      ...Object.fromEntries(
        storageOperationalPorts.map((p, i) => [
          replicas === 1 ? 'storage' : `storage-${i}`,
          `https://${host}:${p}`,
        ])
      ),
      authorizer: `https://${host}:${authorizerOperationalPort}`,
      admission: `https://${host}:${admissionOperationalPort}`,
      ...(withCertificates
        ? { certificates: `https://${host}:${certificatesOperationalPort}` }
        : {}),
      ...(controllers ? { controllers: `https://${host}:${controllersOperationalPort}` } : {}),
    },
    kubeconfigs,
    adminKubeconfigs,
    stages,
  };
}

/** etcd, one member on loopback; ready when /health says so. */
export function etcdProcess(
  o: { dataDir: string; clientPort: number; peerPort: number },
  extraArgs: string[] = []
): ProcessSpec {
  const url = `http://${host}:${o.clientPort}`;
  const peerUrl = `http://${host}:${o.peerPort}`;
  return {
    name: 'etcd',
    role: 'etcd',
    command: findExecutable('etcd', ['/usr/local/bin', '/usr/bin'], 'apt-get install etcd-server'),
    args: [
      '--name',
      'orch',
      '--data-dir',
      o.dataDir,
      '--listen-client-urls',
      url,
      '--advertise-client-urls',
      url,
      '--listen-peer-urls',
      peerUrl,
      '--initial-advertise-peer-urls',
      peerUrl,
      '--initial-cluster',
      `orch=${peerUrl}`,
      '--logger',
      'zap',
      '--log-outputs',
      'stderr',
      '--log-level',
      'warn',
      ...extraArgs,
    ],
    env: etcdEnv(),
    ready: [
      {
        kind: 'http',
        url: `${url}/health`,
        body: (text) => (JSON.parse(text) as { health?: unknown }).health === 'true',
      },
    ],
    timeoutMs: 30_000,
  };
}

/** nats-server on loopback with its monitoring port; ready when /healthz answers. */
export function natsProcess(
  o: { port: number; monitorPort: number },
  extraArgs: string[] = []
): ProcessSpec {
  return {
    name: 'nats',
    role: 'nats',
    command: findExecutable(
      'nats-server',
      ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'],
      'apt-get install nats-server'
    ),
    args: ['-a', host, '-p', String(o.port), '-m', String(o.monitorPort), ...extraArgs],
    ready: [{ kind: 'http', url: `http://${host}:${o.monitorPort}/healthz` }],
    timeoutMs: 20_000,
  };
}

/** The environment without ETCD_* settings that would override the flags. */
function etcdEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('ETCD_')) env[key] = value;
  }
  if (process.arch === 'arm64') env['ETCD_UNSUPPORTED_ARCH'] = 'arm64';
  return env;
}

/** What a gateway talks to: the suite's backends, as a description of a running suite holds them. */
export interface GatewayBackends {
  /** Where the built services are (`services/gateway/dist/main.bundle.js`). */
  repoRoot: string;
  pkiDir: string;
  natsUrl: string;
  /** host:port of each storage replica, the one this gateway prefers first. */
  storage: string[];
  authorizer: string;
  admission: string;
  /** host:port of the certificates service; without it CSR writes answer 503. */
  certificates?: string;
}

/**
 * One gateway on `port` over the suite's backends, as the suite starts each of its gateways;
 * the tests also start one alone on a running suite's backends, for flags of its own. Ready
 * when /readyz answers and the system namespaces exist. `args` come after the suite's flags.
 */
export function gatewayProcess(
  o: GatewayBackends & {
    name: string;
    port: number;
    url: string;
    authorizationMode: AuthorizationMode;
    args?: string[];
    nodeFlags?: string[];
  }
): ProcessSpec {
  const cert = (name: string): CertificateFiles => certFiles(o.pkiDir, name);
  const ca = join(o.pkiDir, 'ca.crt');
  const asAdmin: TlsFiles = { caFile: ca, ...cert(adminCertName) };
  return {
    name: o.name,
    role: 'gateway',
    command: process.execPath,
    args: [
      ...(o.nodeFlags ?? []),
      serviceEntry(o.repoRoot, 'gateway'),
      `--bind-address=${host}`,
      `--secure-port=${o.port}`,
      `--tls-cert-file=${cert('gateway').certFile}`,
      `--tls-private-key-file=${cert('gateway').keyFile}`,
      `--client-ca-file=${ca}`,
      `--storage-servers=${o.storage.join(',')}`,
      `--grpc-ca-file=${ca}`,
      `--grpc-cert-file=${cert('gateway').certFile}`,
      `--grpc-key-file=${cert('gateway').keyFile}`,
      `--nats-url=${o.natsUrl}`,
      `--authorization-mode=${o.authorizationMode}`,
      `--authorizer-servers=${o.authorizer}`,
      `--admission-servers=${o.admission}`,
      ...(o.certificates === undefined ? [] : [`--certificates-servers=${o.certificates}`]),
      '--shutdown-delay-duration=0s',
      // nodes join with bootstrap tokens (kubeadm turns this on too)
      '--enable-bootstrap-token-auth',
      // node agents (the test node agent) trust the cluster CA and the gateway's certificate
      `--kubelet-client-certificate=${cert('gateway').certFile}`,
      `--kubelet-client-key=${cert('gateway').keyFile}`,
      `--kubelet-certificate-authority=${ca}`,
      // the front proxy's certificate for extension servers (they trust the cluster CA as their
      // requestheader client CA)
      `--proxy-client-cert-file=${cert('gateway').certFile}`,
      `--proxy-client-key-file=${cert('gateway').keyFile}`,
      ...(o.args ?? []),
    ],
    ready: [
      { kind: 'https', url: `${o.url}/readyz`, tls: asAdmin },
      { kind: 'https', url: `${o.url}/api/v1/namespaces/default`, tls: asAdmin },
    ],
    timeoutMs: 90_000,
  };
}
