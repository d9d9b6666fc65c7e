// The suite launcher for tests: etcd and NATS on free ports, a throwaway PKI, then storage,
// gateways and controllers as real processes from their built entry points, as `make run`
// starts them. Every process is stopped by stop(), and killed if the test process exits.
import { writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeKubeconfig } from '@orch/component-base/pki';
import { startEtcd } from './etcd-server.js';
import type { EtcdServer } from './etcd-server.js';
import { freePort } from './free-port.js';
import { startNats } from './nats-server.js';
import type { NatsServer } from './nats-server.js';
import { stopProcess } from './processes.js';
import { spawnBackend } from './spawn-backend.js';
import type { SpawnedBackend } from './spawn-backend.js';
import { throwawayPki } from './throwaway-pki.js';
import type { ThrowawayPki } from './throwaway-pki.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface Suite {
  etcd: EtcdServer;
  nats: NatsServer;
  pki: ThrowawayPki;
  /** https://127.0.0.1:<port> of each gateway. */
  gateways: string[];
  /** An admin kubeconfig per gateway. */
  kubeconfigs: string[];
  storagePort: number;
  /** Port of the authorizer service (gRPC, mutual TLS). */
  authorizerPort: number;
  /** GET/POST/... as the admin, JSON in and out (`raw`: the response bytes, for binary answers). */
  request(gateway: number, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: unknown; headers: Record<string, string | string[] | undefined>; text: string; raw: Buffer }>;
  stop(): Promise<void>;
}

export interface SuiteOptions {
  gateways?: number;
  controllers?: boolean;
  storageArgs?: string[];
  /** The gateways' --authorization-mode (default RBAC, answered by the authorizer service). */
  authorizationMode?: 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';
  authorizerArgs?: string[];
  /** Extra flags for every gateway (a function gets the suite's PKI, e.g. to name its files). */
  gatewayArgs?: string[] | ((pki: ThrowawayPki) => string[]);
}

export async function startSuite(opts: SuiteOptions = {}): Promise<Suite> {
  const [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
  const procs: SpawnedBackend[] = [];
  const ca = pki.caFile;
  const tls = (name: string): string[] => {
    const f = pki.file(name);
    return [`--tls-cert-file=${f.certFile}`, `--tls-private-key-file=${f.keyFile}`, `--client-ca-file=${ca}`];
  };
  const admin = pki.file('admin');
  const { readFileSync } = await import('node:fs');
  const adminTls = { ca: readFileSync(ca), cert: readFileSync(admin.certFile), key: readFileSync(admin.keyFile) };

  const call: Suite['request'] = (gateway, method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
      const req = request(
        new URL(path, gateways[gateway]),
        { method, ...adminTls, headers: { Accept: 'application/json', ...(payload ? { 'Content-Type': 'application/json' } : {}), ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const text = raw.toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // not JSON
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers, text, raw });
          });
        }
      );
      req.on('error', reject);
      req.end(payload);
    });

  const storagePort = await freePort();
  procs.push(
    await spawnBackend({
      name: 'storage',
      command: process.execPath,
      args: [join(repoRoot, 'services/storage/dist/main.js'), `--etcd-servers=${etcd.endpoint}`, `--nats-url=${nats.url}`, `--secure-port=${storagePort}`, '--identity=test-storage', ...tls('storage'), ...(opts.storageArgs ?? [])],
      ready: () => tcpOpen(storagePort),
      timeoutMs: 20_000,
    })
  );
  const authorizerPort = await freePort();
  // The authorizer writes its bootstrap policy through the first gateway, as its own user.
  const firstGatewayPort = await freePort();
  const authorizerKubeconfig = join(pki.dir, 'authorizer.kubeconfig');
  const authorizerClient = pki.file('authorizer-client');
  await writeKubeconfig(authorizerKubeconfig, { server: `https://127.0.0.1:${firstGatewayPort}`, caFile: ca, certFile: authorizerClient.certFile, keyFile: authorizerClient.keyFile });
  procs.push(
    await spawnBackend({
      name: 'authorizer',
      command: process.execPath,
      args: [join(repoRoot, 'services/authorizer/dist/main.js'), `--storage-servers=127.0.0.1:${storagePort}`, `--nats-url=${nats.url}`, `--secure-port=${authorizerPort}`, ...tls('authorizer'), `--kubeconfig=${authorizerKubeconfig}`, ...(opts.authorizerArgs ?? [])],
      ready: () => tcpOpen(authorizerPort),
      timeoutMs: 20_000,
    })
  );
  const gateways: string[] = [];
  const kubeconfigs: string[] = [];
  for (let i = 0; i < (opts.gateways ?? 1); i++) {
    const port = i === 0 ? firstGatewayPort : await freePort();
    const g = pki.file('gateway');
    const url = `https://127.0.0.1:${port}`;
    gateways.push(url);
    procs.push(
      await spawnBackend({
        name: `gateway-${i}`,
        command: process.execPath,
        args: [join(repoRoot, 'services/gateway/dist/main.js'), `--secure-port=${port}`, ...tls('gateway'), `--storage-servers=127.0.0.1:${storagePort}`, `--grpc-ca-file=${ca}`, `--grpc-cert-file=${g.certFile}`, `--grpc-key-file=${g.keyFile}`, `--nats-url=${nats.url}`, `--authorization-mode=${opts.authorizationMode ?? 'RBAC'}`, `--authorizer-servers=127.0.0.1:${authorizerPort}`, ...(typeof opts.gatewayArgs === 'function' ? opts.gatewayArgs(pki) : (opts.gatewayArgs ?? []))],
        ready: async () => (await call(i, 'GET', '/readyz')).status === 200,
        timeoutMs: 30_000,
      })
    );
    const kc = join(pki.dir, `admin-${i}.kubeconfig`);
    await writeKubeconfig(kc, { server: url, caFile: ca, certFile: admin.certFile, keyFile: admin.keyFile });
    kubeconfigs.push(kc);
  }
  // The system namespaces are created right after start.
  for (let t = 0; (await call(0, 'GET', '/api/v1/namespaces/default')).status !== 200; t++) {
    if (t > 200) throw new Error('namespace default never appeared');
    await new Promise((r) => setTimeout(r, 50));
  }
  if (opts.controllers) {
    const c = pki.file('controllers');
    const kc = join(pki.dir, 'controllers.kubeconfig');
    await writeKubeconfig(kc, { server: gateways[0] ?? '', caFile: ca, certFile: c.certFile, keyFile: c.keyFile });
    procs.push(await spawnBackend({ name: 'controllers', command: process.execPath, args: [join(repoRoot, 'services/controllers/dist/main.js'), `--kubeconfig=${kc}`], ready: async () => true, timeoutMs: 5000 }));
  }
  await writeFile(join(pki.dir, 'suite.json'), JSON.stringify({ gateways, storagePort, authorizerPort }));
  return {
    etcd,
    nats,
    pki,
    gateways,
    kubeconfigs,
    storagePort,
    authorizerPort,
    request: call,
    async stop() {
      for (const p of procs.reverse()) await stopProcess(p.child);
      await Promise.all([etcd.stop(), nats.stop()]);
      await pki.cleanup();
    },
  };
}

async function tcpOpen(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}
