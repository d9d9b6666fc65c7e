import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { findExecutable } from './find-executable.js';
import { freePort } from './free-port.js';
import { registerTempDir, stopProcess, unregisterTempDir } from './processes.js';
import { retryOnPortInUse, spawnBackend } from './spawn-backend.js';
import { httpGet } from './wait-for.js';

export interface StartEtcdOptions {
  /** Data directory to use and keep; default a fresh temporary one, removed by `stop()`. */
  dataDir?: string;
}

export interface EtcdServer {
  /** Client URL, `http://127.0.0.1:<port>`. */
  endpoint: string;
  dataDir: string;
  pid: number;
  /** SIGTERM, wait for exit, remove the data dir unless it was given. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit (a crash); the data dir stays until `stop()`. */
  kill(): Promise<void>;
}

const startTimeoutMs = 20_000;

/**
 * Starts a single-member etcd on free loopback ports and waits until `/health` reports healthy.
 * Requires `etcd` on PATH (Debian: `apt-get install etcd-server`).
 */
export async function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdServer> {
  const command = await findExecutable('etcd', ['/usr/local/bin', '/usr/bin']);
  if (!command) {
    throw new Error('etcd not found on PATH: install it (apt-get install etcd-server)');
  }
  const ownsDataDir = opts.dataDir === undefined;

  return retryOnPortInUse(async () => {
    const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'orch-etcd-')));
    if (ownsDataDir) registerTempDir(dataDir);
    const removeDataDir = async () => {
      if (!ownsDataDir) return;
      await rm(dataDir, { recursive: true, force: true });
      unregisterTempDir(dataDir);
    };

    const clientPort = await freePort();
    let peerPort = await freePort();
    while (peerPort === clientPort) peerPort = await freePort();
    const endpoint = `http://127.0.0.1:${clientPort}`;
    const peerUrl = `http://127.0.0.1:${peerPort}`;

    let child: ChildProcess;
    try {
      ({ child } = await spawnBackend({
        name: 'etcd',
        command,
        args: [
          '--name', 'default',
          '--data-dir', dataDir,
          '--listen-client-urls', endpoint,
          '--advertise-client-urls', endpoint,
          '--listen-peer-urls', peerUrl,
          '--initial-advertise-peer-urls', peerUrl,
          '--initial-cluster', `default=${peerUrl}`,
          '--logger', 'zap',
          '--log-outputs', 'stderr',
          '--log-level', 'error',
        ],
        env: etcdEnv(),
        ready: async () => {
          const { status, body } = await httpGet(`${endpoint}/health`);
          return status === 200 && (JSON.parse(body) as { health?: unknown }).health === 'true';
        },
        timeoutMs: startTimeoutMs,
      }));
    } catch (err) {
      await removeDataDir();
      throw err;
    }

    return {
      endpoint,
      dataDir,
      pid: child.pid ?? -1,
      async stop() {
        await stopProcess(child, 'SIGTERM');
        await removeDataDir();
      },
      async kill() {
        await stopProcess(child, 'SIGKILL');
      },
    };
  });
}

/** The parent environment without ETCD_* settings that would override the flags. */
function etcdEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('ETCD_')) env[key] = value;
  }
  if (process.arch === 'arm64') env['ETCD_UNSUPPORTED_ARCH'] = 'arm64';
  return env;
}
