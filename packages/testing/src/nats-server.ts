import type { ChildProcess } from 'node:child_process';

import { findExecutable } from './find-executable.js';
import { freePort } from './free-port.js';
import { stopProcess } from './processes.js';
import { retryOnPortInUse, spawnBackend } from './spawn-backend.js';
import { httpGet } from './wait-for.js';

export interface NatsServer {
  /** Client URL, `nats://127.0.0.1:<port>`. */
  url: string;
  /** Monitoring URL, `http://127.0.0.1:<monitorPort>`. */
  monitorUrl: string;
  pid: number;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

const startTimeoutMs = 20_000;

/**
 * Starts a nats-server on free loopback ports and waits until its `/healthz` answers 200. The
 * binary is looked up on PATH, then in /usr/sbin and /usr/local/sbin (Debian installs it in sbin).
 */
export async function startNats(): Promise<NatsServer> {
  const command = await findExecutable('nats-server', ['/usr/sbin', '/usr/local/sbin']);
  if (!command) {
    throw new Error('nats-server not found on PATH or in /usr/sbin: apt-get install nats-server');
  }

  return retryOnPortInUse(async () => {
    const port = await freePort();
    let monitorPort = await freePort();
    while (monitorPort === port) monitorPort = await freePort();
    const monitorUrl = `http://127.0.0.1:${monitorPort}`;

    const { child }: { child: ChildProcess } = await spawnBackend({
      name: 'nats-server',
      command,
      args: ['-a', '127.0.0.1', '-p', String(port), '-m', String(monitorPort)],
      ready: async () => (await httpGet(`${monitorUrl}/healthz`)).status === 200,
      timeoutMs: startTimeoutMs,
    });

    return {
      url: `nats://127.0.0.1:${port}`,
      monitorUrl,
      pid: child.pid ?? -1,
      stop: () => stopProcess(child, 'SIGTERM'),
      kill: () => stopProcess(child, 'SIGKILL'),
    };
  });
}
