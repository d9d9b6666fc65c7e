// orch-health-probe (health-probe-cli.ts): asks a service's grpc.health.v1 whether it is serving, for container
// health checks and Kubernetes exec probes (a kubelet's own gRPC probe cannot present a client
// certificate, and every orch service requires one). Flags and exit codes as the
// grpc_health_probe tool's that operators know: 0 serving, 1 bad flags, 2 no connection,
// 3 the call failed, 4 not serving.
import { parseArgs } from 'node:util';
import { clientCredentials } from './tls.js';
import { HealthClient } from './health-client.js';

const usage = `usage: orch-health-probe --addr <host:port> [--service <name>]
    [--tls-ca-cert <file> --tls-client-cert <file> --tls-client-key <file>]
    [--tls-server-name <name>] [--connect-timeout <ms>] [--rpc-timeout <ms>]

Exits 0 when the service answers SERVING, 1 on bad flags, 2 when it cannot connect,
3 when the call fails, 4 when the answer is not SERVING.`;

export const probeExit = { serving: 0, flags: 1, connect: 2, rpc: 3, unhealthy: 4 } as const;

/** The probe: its exit code, with one line on `out` (as grpc_health_probe prints). */
export async function probe(argv: string[], out: (line: string) => void): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        addr: { type: 'string' },
        service: { type: 'string', default: '' },
        'tls-ca-cert': { type: 'string' },
        'tls-client-cert': { type: 'string' },
        'tls-client-key': { type: 'string' },
        'tls-server-name': { type: 'string' },
        'connect-timeout': { type: 'string', default: '1000' },
        'rpc-timeout': { type: 'string', default: '1000' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    out(`error: ${(err as Error).message}\n${usage}`);
    return probeExit.flags;
  }
  const tlsFlags = [values['tls-ca-cert'], values['tls-client-cert'], values['tls-client-key']];
  const connectMs = Number(values['connect-timeout']);
  const rpcMs = Number(values['rpc-timeout']);
  const bad = [
    ...(values.addr ? [] : ['--addr is required']),
    ...(tlsFlags.every((f) => f) || tlsFlags.every((f) => !f)
      ? []
      : ['--tls-ca-cert, --tls-client-cert and --tls-client-key go together']),
    ...(connectMs > 0 && rpcMs > 0 ? [] : ['timeouts are milliseconds above 0']),
  ];
  if (values.help || bad.length > 0) {
    out(values.help ? usage : `error: ${bad.join('; ')}\n${usage}`);
    return values.help ? probeExit.serving : probeExit.flags;
  }
  const [caFile, certFile, keyFile] = tlsFlags;
  let client: HealthClient;
  try {
    client = new HealthClient(
      values.addr!,
      clientCredentials(caFile ? { caFile, certFile: certFile!, keyFile: keyFile! } : undefined),
      values['tls-server-name']
        ? { 'grpc.ssl_target_name_override': values['tls-server-name'] }
        : undefined
    );
  } catch (err) {
    out(`error: ${(err as Error).message}`);
    return probeExit.flags;
  }
  try {
    try {
      await client.waitForReady(connectMs);
    } catch (err) {
      out(
        `timeout: failed to connect service "${values.addr}" within ${connectMs}ms: ${(err as Error).message}`
      );
      return probeExit.connect;
    }
    let status;
    try {
      status = await client.check(values.service, rpcMs);
    } catch (err) {
      out(`error: health rpc failed: ${(err as Error).message}`);
      return probeExit.rpc;
    }
    if (status !== 'SERVING') {
      out(`service unhealthy (responded with "${status}")`);
      return probeExit.unhealthy;
    }
    out(`status: ${status}`);
    return probeExit.serving;
  } finally {
    client.close();
  }
}
