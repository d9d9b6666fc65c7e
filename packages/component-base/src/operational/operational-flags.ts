// The operational server's flags, as upstream's components name them (k8s
// apiserver/pkg/server/options: SecureServingOptions, DelegatingAuthenticationOptions,
// DelegatingAuthorizationOptions; component-base's --profiling). The controllers, which serve
// nothing else, take upstream's --bind-address and --secure-port; the services whose
// --bind-address and --secure-port are their gRPC listener take them prefixed `operational-`
// and serve with the same certificate.
import { metricsFlags, parseGoBool, splitList } from '../flags/index.js';
import type { FlagValues } from '../flags/index.js';
import type { StringFlags } from '../flags/parse-flags.js';

/** Upstream's default: the health endpoints are open to anyone. */
export const defaultAlwaysAllowPaths = '/healthz,/readyz,/livez';

/** Authentication, authorization and profiling flags of every operational server. */
export function operationalFlags(): StringFlags<
  | 'authentication-kubeconfig'
  | 'authorization-kubeconfig'
  | 'authorization-always-allow-paths'
  | 'profiling'
> {
  return {
    'authentication-kubeconfig': {
      type: 'string',
      description:
        'Kubeconfig pointing at the API with rights to create tokenreviews; bearer tokens sent to the operational server are checked with a TokenReview (without it only client certificates authenticate).',
    },
    'authorization-kubeconfig': {
      type: 'string',
      description:
        'Kubeconfig pointing at the API with rights to create subjectaccessreviews; each request to the operational server outside --authorization-always-allow-paths is checked with a SubjectAccessReview (without it only system:masters is allowed).',
    },
    'authorization-always-allow-paths': {
      type: 'string',
      default: defaultAlwaysAllowPaths,
      description:
        'Paths of the operational server that need no authorization, comma-separated; a trailing * matches a prefix.',
    },
    profiling: {
      type: 'string',
      default: 'true',
      description:
        'Enable profiling via web interface host:port/debug/pprof/ (a CPU profile, a heap snapshot) and /debug/flags/v (the log level at runtime).',
    },
  } as const;
}

/** `--operational-bind-address`, `--operational-secure-port`: beside a gRPC listener. */
export function operationalPortFlags(): StringFlags<
  'operational-bind-address' | 'operational-secure-port'
> {
  return {
    'operational-bind-address': {
      type: 'string',
      default: '127.0.0.1',
      description:
        'Address the operational HTTPS server (metrics, health, profiling, log level) listens on.',
    },
    'operational-secure-port': {
      type: 'string',
      default: '0',
      description:
        'Port of the operational HTTPS server, served with --tls-cert-file (0: not served).',
    },
  } as const;
}

/** `--bind-address`, `--secure-port` and the certificate, for a process with no other listener. */
export function operationalServingFlags(): StringFlags<
  'bind-address' | 'secure-port' | 'tls-cert-file' | 'tls-private-key-file' | 'client-ca-file'
> {
  return {
    'bind-address': {
      type: 'string',
      default: '127.0.0.1',
      description: 'Address the operational HTTPS server listens on.',
    },
    'secure-port': {
      type: 'string',
      default: '0',
      description: 'Port of the operational HTTPS server (0: not served).',
    },
    'tls-cert-file': {
      type: 'string',
      description: 'Serving certificate of the operational server.',
    },
    'tls-private-key-file': { type: 'string', description: 'Key of that serving certificate.' },
    'client-ca-file': {
      type: 'string',
      description: 'CA that client certificates sent to the operational server must chain to.',
    },
  } as const;
}

/** The flags of an operational server beside a gRPC listener, the deprecated --metrics-port too. */
export function operationalBesideFlags(): ReturnType<typeof operationalPortFlags> &
  ReturnType<typeof operationalFlags> &
  ReturnType<typeof metricsFlags> {
  return { ...operationalPortFlags(), ...operationalFlags(), ...metricsFlags() };
}

export interface OperationalTls {
  certFile: string;
  keyFile: string;
  /** CA of client certificates; none: only bearer tokens authenticate. */
  caFile?: string;
}

export interface OperationalOptions {
  bindAddress: string;
  /** 0: not served. */
  securePort: number;
  tls: OperationalTls | undefined;
  authenticationKubeconfig: string;
  authorizationKubeconfig: string;
  alwaysAllowPaths: string[];
  profiling: boolean;
  /** Values that did not parse (reported by validateOperational). */
  problems: string[];
  /** The process's flags as given, for /flagz. */
  flags: Readonly<Record<string, string | boolean | undefined>>;
}

type Flags = FlagValues<ReturnType<typeof operationalFlags>>;

export function operationalOptions(
  f: Flags & Readonly<Record<string, string | boolean | undefined>>,
  serving: { bindAddress: string; securePort: number; tls: OperationalTls | undefined }
): OperationalOptions {
  const profiling = parseGoBool(f['profiling'] ?? 'true');
  return {
    ...serving,
    authenticationKubeconfig: f['authentication-kubeconfig'] ?? '',
    authorizationKubeconfig: f['authorization-kubeconfig'] ?? '',
    alwaysAllowPaths: splitList(f['authorization-always-allow-paths']),
    profiling: profiling ?? true,
    problems:
      profiling === undefined
        ? [`--profiling must be true or false, not ${JSON.stringify(f['profiling'])}`]
        : [],
    flags: f,
  };
}

/**
 * The operational options beside a gRPC listener: served with its certificate, on
 * --operational-secure-port or else the deprecated --metrics-port.
 */
export function operationalOptionsBeside(
  f: Flags & FlagValues<ReturnType<typeof operationalBesideFlags>>,
  tls: OperationalTls | undefined
): OperationalOptions {
  const port = Number(f['operational-secure-port'] ?? '0');
  return operationalOptions(f, {
    bindAddress: f['operational-bind-address'] ?? '127.0.0.1',
    securePort: port === 0 ? Number(f['metrics-port'] ?? '0') : port,
    tls,
  });
}

/** The operational options of a process whose only listener is this one (the controllers). */
export function operationalOptionsServing(
  f: Flags & FlagValues<ReturnType<typeof operationalServingFlags>>
): OperationalOptions {
  const cert = f['tls-cert-file'];
  const key = f['tls-private-key-file'];
  const ca = f['client-ca-file'];
  return operationalOptions(f, {
    bindAddress: f['bind-address'] ?? '127.0.0.1',
    securePort: Number(f['secure-port']),
    tls: cert && key ? { certFile: cert, keyFile: key, ...(ca ? { caFile: ca } : {}) } : undefined,
  });
}

export function validateOperational(o: OperationalOptions, portFlag: string): string[] {
  const errors: string[] = [...o.problems];
  if (!Number.isInteger(o.securePort) || o.securePort < 0 || o.securePort > 65535) {
    errors.push(`--${portFlag} must be a port number (0: not served)`);
  }
  if (o.securePort !== 0 && !o.tls) {
    errors.push(
      `--${portFlag} needs a serving certificate (--tls-cert-file, --tls-private-key-file)`
    );
  }
  for (const p of o.alwaysAllowPaths) {
    if (!p.startsWith('/'))
      errors.push(`--authorization-always-allow-paths: ${JSON.stringify(p)} must start with /`);
    if (p.slice(0, -1).includes('*'))
      errors.push(`--authorization-always-allow-paths: ${JSON.stringify(p)}: * only at the end`);
  }
  return errors;
}
