// The small flag sets services compose: metrics, NATS, the storage and authorizer clients, the
// gRPC client certificate, logging. Names, defaults and meanings are the ones the scripts,
// docker-compose and the deploy manifests pass.
import type { LogLevel } from '../logs/index.js';
import type { TlsFiles } from '../grpc-server/index.js';
import type { FlagValues, StringFlags } from './parse-flags.js';

/**
 * `--metrics-port`, deprecated: the operational server (--operational-secure-port) serves
 * /metrics now, over HTTPS and behind authorization; this port is taken as its port when that
 * flag is not given.
 */
export function metricsFlags(): StringFlags<'metrics-port'> {
  return {
    'metrics-port': {
      type: 'string',
      default: '0',
      description: 'Port of the operational server when --operational-secure-port is not given.',
      deprecated:
        'use --operational-secure-port instead: /metrics is served by the operational server, over HTTPS.',
    },
  } as const;
}

export const metricsPort = (f: FlagValues<ReturnType<typeof metricsFlags>>): number =>
  Number(f['metrics-port']);

/** `--nats-url`. */
export function natsFlags(): StringFlags<'nats-url'> {
  return {
    'nats-url': {
      type: 'string',
      default: 'nats://127.0.0.1:4222',
      description: 'NATS server URL(s), comma-separated.',
    },
  } as const;
}

export const natsUrls = (f: FlagValues<ReturnType<typeof natsFlags>>): string[] =>
  splitList(f['nats-url']);

export function validateNatsUrls(urls: string[]): string[] {
  return urls.length ? [] : ['--nats-url must name at least one NATS server'];
}

/** `--storage-servers`: the storage service (gRPC). */
export function storageClientFlags(): StringFlags<'storage-servers'> {
  return {
    'storage-servers': {
      type: 'string',
      default: '127.0.0.1:6501',
      description:
        'Addresses of the storage replicas (gRPC), comma-separated, in order of preference: calls go to the first one reachable, and move to the next when it fails.',
    },
  } as const;
}

/** `--authorizer-servers`: the authorizer service (gRPC). */
export function authorizerClientFlags(
  description = 'Address of the authorizer service (gRPC).'
): StringFlags<'authorizer-servers'> {
  return {
    'authorizer-servers': { type: 'string', default: '127.0.0.1:6502', description },
  } as const;
}

/** `--grpc-ca-file`, `--grpc-cert-file`, `--grpc-key-file`: the client side of internal mTLS. */
export function grpcClientTlsFlags(): StringFlags<
  'grpc-ca-file' | 'grpc-cert-file' | 'grpc-key-file'
> {
  return {
    'grpc-ca-file': { type: 'string', description: 'CA of the internal gRPC services.' },
    'grpc-cert-file': {
      type: 'string',
      description: 'Client certificate for internal gRPC (mutual TLS).',
    },
    'grpc-key-file': {
      type: 'string',
      description: 'Key of the internal gRPC client certificate.',
    },
  } as const;
}

export function grpcClientTls(
  f: FlagValues<ReturnType<typeof grpcClientTlsFlags>>
): TlsFiles | undefined {
  const ca = f['grpc-ca-file'];
  const cert = f['grpc-cert-file'];
  const key = f['grpc-key-file'];
  return ca && cert && key ? { caFile: ca, certFile: cert, keyFile: key } : undefined;
}

export function validateGrpcClientTls(
  f: FlagValues<ReturnType<typeof grpcClientTlsFlags>>
): string[] {
  const given = [f['grpc-ca-file'], f['grpc-cert-file'], f['grpc-key-file']].filter(Boolean);
  return given.length === 0 || given.length === 3
    ? []
    : ['--grpc-ca-file, --grpc-cert-file and --grpc-key-file go together'];
}

const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** `--log-level` (default: $ORCH_LOG_LEVEL, else info). */
export function loggingFlags(): StringFlags<'log-level'> {
  return {
    'log-level': {
      type: 'string',
      description: 'debug, info, warn or error (default $ORCH_LOG_LEVEL, else info).',
    },
  } as const;
}

export function logLevel(f: FlagValues<ReturnType<typeof loggingFlags>>): LogLevel {
  return (f['log-level'] ?? process.env['ORCH_LOG_LEVEL'] ?? 'info') as LogLevel;
}

export function validateLogLevel(level: string): string[] {
  return (logLevels as readonly string[]).includes(level)
    ? []
    : [`--log-level must be one of ${logLevels.join(', ')}, not ${JSON.stringify(level)}`];
}

/** A comma-separated flag as a list, empty items dropped. */
export function splitList(value: string | undefined): string[] {
  return (value ?? '').split(',').filter(Boolean);
}
