// Flags of the authorizer service → a validated config.
import { parseFlags } from '@orch/component-base/flags';
import type { TlsFiles } from '@orch/component-base/grpc-server';

export const authorizationModes = ['RBAC', 'AlwaysAllow', 'AlwaysDeny'] as const;
export type AuthorizationMode = (typeof authorizationModes)[number];

export const authorizerFlags = {
  'authorization-mode': { type: 'string', default: 'RBAC', description: 'RBAC, AlwaysAllow or AlwaysDeny.' },
  'storage-servers': { type: 'string', default: '127.0.0.1:6501', description: 'Address of the storage service (gRPC).' },
  'nats-url': { type: 'string', default: 'nats://127.0.0.1:4222', description: 'NATS server URL(s), comma-separated.' },
  'bind-address': { type: 'string', default: '127.0.0.1', description: 'Address the gRPC server listens on.' },
  'secure-port': { type: 'string', default: '6502', description: 'gRPC port (0 picks a free one).' },
  'metrics-port': { type: 'string', default: '0', description: 'Port of the Prometheus /metrics endpoint (0: off).' },
  'tls-cert-file': { type: 'string', description: 'Serving certificate (mutual TLS); also the client certificate to storage.' },
  'tls-private-key-file': { type: 'string', description: 'Key of the serving certificate.' },
  'client-ca-file': { type: 'string', description: 'CA that client certificates must chain to (and that storage is verified against).' },
  'bootstrap-policy': { type: 'string', default: 'true', description: 'Reconcile the bootstrap roles and bindings at start.' },
} as const;

export interface AuthorizerConfig {
  mode: AuthorizationMode;
  storageAddress: string;
  natsUrls: string[];
  address: string;
  metricsPort: number;
  tls: TlsFiles | undefined;
  bootstrapPolicy: boolean;
}

export function authorizerConfig(argv?: string[]): AuthorizerConfig {
  const f = parseFlags('orch-authorizer', authorizerFlags, argv);
  const mode = f['authorization-mode'] ?? 'RBAC';
  if (!(authorizationModes as readonly string[]).includes(mode)) {
    throw new Error(`--authorization-mode must be one of ${authorizationModes.join(', ')}, not ${JSON.stringify(mode)}`);
  }
  const tlsGiven = [f['tls-cert-file'], f['tls-private-key-file'], f['client-ca-file']].filter(Boolean).length;
  if (tlsGiven !== 0 && tlsGiven !== 3) throw new Error('--tls-cert-file, --tls-private-key-file and --client-ca-file go together');
  return {
    mode: mode as AuthorizationMode,
    storageAddress: f['storage-servers'] ?? '',
    natsUrls: (f['nats-url'] ?? '').split(',').filter(Boolean),
    address: `${f['bind-address']}:${f['secure-port']}`,
    metricsPort: Number(f['metrics-port']),
    tls: tlsGiven === 3 ? { certFile: f['tls-cert-file']!, keyFile: f['tls-private-key-file']!, caFile: f['client-ca-file']! } : undefined,
    bootstrapPolicy: f['bootstrap-policy'] !== 'false',
  };
}
