// The secure serving flag set (k8s SecureServingOptions): where a service listens and with which
// certificate; composed by every service.
import type { TlsFiles } from '../grpc-server/index.js';
import type { FlagValues, StringFlags } from './parse-flags.js';

export interface SecureServingDefaults {
  /** Default of --secure-port. */
  port: string;
  /** What listens: `gRPC server`, `HTTPS server`. */
  server: string;
  /** Descriptions of the TLS flags, where a service says more (the defaults read for gRPC). */
  certDescription?: string;
  clientCaDescription?: string;
}

export function secureServingFlags(
  d: SecureServingDefaults
): StringFlags<
  'bind-address' | 'secure-port' | 'tls-cert-file' | 'tls-private-key-file' | 'client-ca-file'
> {
  return {
    'bind-address': {
      type: 'string',
      default: '127.0.0.1',
      description: `Address the ${d.server} listens on.`,
    },
    'secure-port': {
      type: 'string',
      default: d.port,
      description: `${d.server.replace(/ server$/, '')} port (0 picks a free one).`,
    },
    'tls-cert-file': {
      type: 'string',
      description: d.certDescription ?? 'Serving certificate (mutual TLS).',
    },
    'tls-private-key-file': { type: 'string', description: 'Key of the serving certificate.' },
    'client-ca-file': {
      type: 'string',
      description: d.clientCaDescription ?? 'CA that client certificates must chain to.',
    },
  } as const;
}

export interface SecureServingOptions {
  bindAddress: string;
  securePort: number;
  tls: TlsFiles | undefined;
  /** How many of the three TLS files were given (validated: none or all). */
  tlsFilesGiven: number;
}

export function secureServingOptions(
  f: FlagValues<ReturnType<typeof secureServingFlags>>
): SecureServingOptions {
  const files = [f['tls-cert-file'], f['tls-private-key-file'], f['client-ca-file']];
  const given = files.filter(Boolean).length;
  return {
    bindAddress: f['bind-address'] ?? '127.0.0.1',
    securePort: Number(f['secure-port']),
    tls:
      given === 3
        ? {
            certFile: f['tls-cert-file'] ?? '',
            keyFile: f['tls-private-key-file'] ?? '',
            caFile: f['client-ca-file'] ?? '',
          }
        : undefined,
    tlsFilesGiven: given,
  };
}

/** Errors of the set; `tlsRequired`: the service serves TLS only. */
export function validateSecureServing(
  o: SecureServingOptions,
  opts: { tlsRequired?: boolean; server?: string } = {}
): string[] {
  const errors: string[] = [];
  if (!Number.isInteger(o.securePort) || o.securePort < 0 || o.securePort > 65535) {
    errors.push('--secure-port must be a port number (0 picks a free one)');
  }
  if (opts.tlsRequired && o.tlsFilesGiven !== 3) {
    errors.push(
      '--tls-cert-file, --tls-private-key-file and --client-ca-file are required: ' +
        `the ${opts.server ?? 'server'} serves HTTPS only`
    );
  } else if (o.tlsFilesGiven !== 0 && o.tlsFilesGiven !== 3) {
    errors.push('--tls-cert-file, --tls-private-key-file and --client-ca-file go together');
  }
  return errors;
}

/** `host:port` of the listener. */
export function servingAddress(o: SecureServingOptions): string {
  return `${o.bindAddress}:${o.securePort}`;
}
