import type { ChildProcess } from 'node:child_process';

import { freePorts, natsProcess, probeReadiness, stopProcess } from '@orch/suite';

import { retryOnPortInUse, spawnBackend } from './spawn-backend.js';

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
 * Starts a nats-server on free loopback ports, as the suite describes it (@orch/suite's
 * natsProcess), and waits until its `/healthz` answers 200. The binary is looked up on PATH,
 * then in /usr/sbin and /usr/local/sbin (Debian installs it in sbin).
 */
export async function startNats(): Promise<NatsServer> {
  return retryOnPortInUse(async () => {
    const [port, monitorPort] = (await freePorts(2)) as [number, number];
    const spec = natsProcess({ port, monitorPort });
    const monitorUrl = `http://127.0.0.1:${monitorPort}`;
    const startedAt = Date.now();

    const { child }: { child: ChildProcess } = await spawnBackend({
      name: 'nats-server',
      command: spec.command,
      args: spec.args,
      ready: async () => {
        for (const r of spec.ready) if (!(await probeReadiness(r, startedAt))) return false;
        return true;
      },
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
