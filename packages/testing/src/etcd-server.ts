import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  etcdProcess,
  freePorts,
  registerTempDir,
  stopProcess,
  unregisterTempDir,
} from '@orch/suite';

import { retryOnPortInUse, spawnProcessSpec } from './spawn-backend.js';
import { refuseInUnitTier } from './test-tier.js';

export interface StartEtcdOptions {
  /** Data directory to use and keep; default a fresh temporary one, removed by `stop()`. */
  dataDir?: string;
  /** Ports to listen on (a restart of a killed server at its address); default free ones. */
  clientPort?: number;
  peerPort?: number;
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

/** An etcd started alone: its ports too, so a killed one can be started again at its address. */
export interface StandaloneEtcd extends EtcdServer {
  clientPort: number;
  peerPort: number;
}

const startTimeoutMs = 20_000;

/**
 * Starts a single-member etcd on free loopback ports, as the suite describes it (@orch/suite's
 * etcdProcess), and waits until `/health` reports healthy. Requires `etcd` on PATH (Debian:
 * `apt-get install etcd-server`).
 */
export async function startEtcd(opts: StartEtcdOptions = {}): Promise<StandaloneEtcd> {
  refuseInUnitTier('etcd');
  const ownsDataDir = opts.dataDir === undefined;

  return retryOnPortInUse(async () => {
    const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'orch-etcd-')));
    if (ownsDataDir) registerTempDir(dataDir);
    const removeDataDir = async () => {
      if (!ownsDataDir) return;
      await rm(dataDir, { recursive: true, force: true });
      unregisterTempDir(dataDir);
    };

    const [freeClient, freePeer] = (await freePorts(2)) as [number, number];
    const clientPort = opts.clientPort ?? freeClient;
    const peerPort = opts.peerPort ?? freePeer;
    const spec = etcdProcess({ dataDir, clientPort, peerPort });
    const endpoint = `http://127.0.0.1:${clientPort}`;

    let child: ChildProcess;
    try {
      ({ child } = await spawnProcessSpec(spec, 'etcd', startTimeoutMs));
    } catch (err) {
      await removeDataDir();
      throw err;
    }

    return {
      endpoint,
      dataDir,
      clientPort,
      peerPort,
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
