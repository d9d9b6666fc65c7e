import { freePorts, natsProcess, stopProcess } from '@orch/suite';

import { retryOnPortInUse, spawnProcessSpec } from './spawn-backend.js';
import { refuseInUnitTier } from './test-tier.js';

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
  refuseInUnitTier('nats-server');
  return retryOnPortInUse(async () => {
    const [port, monitorPort] = (await freePorts(2)) as [number, number];
    const spec = natsProcess({ port, monitorPort });
    const monitorUrl = `http://127.0.0.1:${monitorPort}`;

    const { child } = await spawnProcessSpec(spec, 'nats-server', startTimeoutMs);

    return {
      url: `nats://127.0.0.1:${port}`,
      monitorUrl,
      pid: child.pid ?? -1,
      stop: () => stopProcess(child, 'SIGTERM'),
      kill: () => stopProcess(child, 'SIGKILL'),
    };
  });
}
