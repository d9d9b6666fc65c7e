// Flags of the gateway → a validated config (options → complete → validate → config).
import { parseDuration, parseFlags } from '@orch/component-base/flags';
import type { TlsFiles } from '@orch/component-base/grpc-server';
import { authenticationConfig, authenticationFlags } from './authn/authentication-options.js';
import type { AuthenticationConfig } from './authn/authentication-options.js';

export const gatewayFlags = {
  'bind-address': { type: 'string', default: '127.0.0.1', description: 'Address the HTTPS server listens on.' },
  'secure-port': { type: 'string', default: '6443', description: 'HTTPS port (0 picks a free one).' },
  'tls-cert-file': { type: 'string', description: 'Serving certificate.' },
  'tls-private-key-file': { type: 'string', description: 'Key of the serving certificate.' },
  'client-ca-file': { type: 'string', description: 'CA that client certificates are verified against (CN = user, O = groups).' },
  'storage-servers': { type: 'string', default: '127.0.0.1:6501', description: 'Address of the storage service (gRPC).' },
  'grpc-ca-file': { type: 'string', description: 'CA of the internal gRPC services.' },
  'grpc-cert-file': { type: 'string', description: 'Client certificate for internal gRPC (mutual TLS).' },
  'grpc-key-file': { type: 'string', description: 'Key of the internal gRPC client certificate.' },
  'nats-url': { type: 'string', default: 'nats://127.0.0.1:4222', description: 'NATS server URL(s), comma-separated.' },
  'shutdown-delay-duration': { type: 'string', default: '0s', description: 'Time /readyz reports failure before the server stops accepting requests.' },
  'livez-grace-period': { type: 'string', default: '0s', description: 'Start-up time during which /livez checks do not fail.' },
  'max-request-body-bytes': { type: 'string', default: String(3 * 1024 * 1024), description: 'Largest request body accepted (413 above).' },
  'max-requests-inflight': { type: 'string', default: '400', description: 'Concurrent read-only requests (0: unlimited).' },
  'max-mutating-requests-inflight': { type: 'string', default: '200', description: 'Concurrent mutating requests (0: unlimited).' },
  'min-request-timeout': { type: 'string', default: '1800', description: 'Longest a watch runs without timeoutSeconds, in seconds.' },
  'authorization-mode': { type: 'string', default: 'RBAC', description: 'RBAC (asks the authorizer service), AlwaysAllow or AlwaysDeny.' },
  'authorizer-servers': { type: 'string', default: '127.0.0.1:6502', description: 'Address of the authorizer service (gRPC), for --authorization-mode=RBAC.' },
  'authorization-cache-authorized-ttl': {
    type: 'string',
    default: '5m',
    description: 'How long an allow from the authorizer service is reused (0s: never). A change of the RBAC objects it stood on ends it sooner.',
  },
  'authorization-cache-unauthorized-ttl': {
    type: 'string',
    default: '30s',
    description: 'How long a denial from the authorizer service is reused (0s: never). A change of the RBAC objects it stood on ends it sooner.',
  },
  'storage-request-timeout': { type: 'string', default: '10s', description: 'Deadline of each call to the storage service.' },
  // authentication: authn/authentication-options.ts
  ...authenticationFlags,
} as const;

export interface GatewayConfig {
  address: string;
  port: number;
  tls: TlsFiles | undefined;
  storageAddress: string;
  grpcTls: TlsFiles | undefined;
  natsUrls: string[];
  shutdownDelayMs: number;
  livezGraceMs: number;
  maxBodyBytes: number;
  maxReadOnlyInFlight: number;
  maxMutatingInFlight: number;
  maxWatchSeconds: number;
  storageTimeoutMs: number;
  authorizationMode: 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';
  authorizerAddress: string;
  authorizationCache: { authorizedTtlMs: number; unauthorizedTtlMs: number };
  authn: AuthenticationConfig;
}

export function gatewayConfig(argv?: string[]): GatewayConfig {
  const f = parseFlags('orch-gateway', gatewayFlags, argv);
  const tls = f['tls-cert-file'] && f['tls-private-key-file'] && f['client-ca-file'];
  if (!tls) throw new Error('--tls-cert-file, --tls-private-key-file and --client-ca-file are required: the gateway serves HTTPS only');
  const authorizationMode = f['authorization-mode'] ?? 'RBAC';
  if (authorizationMode !== 'RBAC' && authorizationMode !== 'AlwaysAllow' && authorizationMode !== 'AlwaysDeny') {
    throw new Error(`--authorization-mode must be RBAC, AlwaysAllow or AlwaysDeny, not ${JSON.stringify(authorizationMode)}`);
  }
  if (authorizationMode === 'RBAC' && !f['authorizer-servers']) throw new Error('--authorization-mode=RBAC needs --authorizer-servers');
  const grpc = f['grpc-ca-file'] && f['grpc-cert-file'] && f['grpc-key-file'];
  return {
    address: f['bind-address'] ?? '127.0.0.1',
    port: Number(f['secure-port']),
    tls: { certFile: f['tls-cert-file']!, keyFile: f['tls-private-key-file']!, caFile: f['client-ca-file']! },
    storageAddress: f['storage-servers'] ?? '',
    grpcTls: grpc ? { caFile: f['grpc-ca-file']!, certFile: f['grpc-cert-file']!, keyFile: f['grpc-key-file']! } : undefined,
    natsUrls: (f['nats-url'] ?? '').split(',').filter(Boolean),
    shutdownDelayMs: parseDuration(f['shutdown-delay-duration'] ?? '0s'),
    livezGraceMs: parseDuration(f['livez-grace-period'] ?? '0s'),
    maxBodyBytes: Number(f['max-request-body-bytes']),
    maxReadOnlyInFlight: Number(f['max-requests-inflight']),
    maxMutatingInFlight: Number(f['max-mutating-requests-inflight']),
    maxWatchSeconds: Number(f['min-request-timeout']),
    storageTimeoutMs: parseDuration(f['storage-request-timeout'] ?? '10s'),
    authorizationMode,
    authorizerAddress: f['authorizer-servers'] ?? '',
    authorizationCache: {
      authorizedTtlMs: parseDuration(f['authorization-cache-authorized-ttl'] ?? '5m'),
      unauthorizedTtlMs: parseDuration(f['authorization-cache-unauthorized-ttl'] ?? '30s'),
    },
    authn: authenticationConfig(f),
  };
}
