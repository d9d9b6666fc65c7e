// Flags of the gateway (options → complete → validate; config.ts builds from the result).
import { auditFlags, completeAuditOptions } from './audit/audit-options.js';
import type { AuditOptions } from './audit/audit-options.js';
import {
  InvalidOptionsError,
  authorizerClientFlags,
  derive,
  deriveDuration,
  grpcClientTls,
  grpcClientTlsFlags,
  logLevel,
  loggingFlags,
  natsFlags,
  natsUrls,
  parseFlags,
  secureServingFlags,
  secureServingOptions,
  storageClientFlags,
  validateGrpcClientTls,
  validateLogLevel,
  validateNatsUrls,
  validateSecureServing,
} from '@orch/component-base/flags';
import type { FlagValues, SecureServingOptions } from '@orch/component-base/flags';
import type { TlsFiles } from '@orch/component-base/grpc-server';
import type { LogLevel } from '@orch/component-base/logs';
import { completeFeatureGates, featureGateFlags } from '@orch/component-base/featuregate';
import type { FeatureGates } from '@orch/component-base/featuregate';
import {
  showHiddenMetricsFlags,
  validateShowHiddenMetricsVersion,
} from '@orch/component-base/metrics';
import { builtinResources } from '@orch/apimachinery/registry';
import { serviceAddressProblem } from '@orch/apimachinery/webhook';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import {
  allOrderedPlugins,
  defaultOnPlugins,
  enabledPluginNames,
  isPlacedIn,
  pluginsPlacedIn,
} from '@orch/apimachinery/admission';
import type { PluginName } from '@orch/apimachinery/admission';
import { enabledResources } from './resourceconfig/resource-config.js';
import {
  applyAuthorization,
  authenticationConfig,
  authenticationFlags,
  parseBool,
} from './authn/authentication-options.js';
import { parseServiceRanges } from './registry/core/services/parse-service-ranges.js';
import {
  kubeletClientFlags,
  kubeletClientOptions,
} from './registry/core/nodes/kubelet-client-options.js';
import type { KubeletClientOptions } from './registry/core/nodes/kubelet-client.js';
import type { ServiceRanges } from './registry/core/services/service-allocator.js';
import type { AuthenticationConfig } from './authn/authentication-options.js';

export const gatewayFlags = {
  ...secureServingFlags({
    port: '6443',
    server: 'HTTPS server',
    certDescription: 'Serving certificate.',
    clientCaDescription:
      'CA that client certificates are verified against (CN = user, O = groups).',
  }),
  ...storageClientFlags(),
  ...grpcClientTlsFlags(),
  ...natsFlags(),
  'shutdown-delay-duration': {
    type: 'string',
    default: '0s',
    description: 'Time /readyz reports failure before the server stops accepting requests.',
  },
  'livez-grace-period': {
    type: 'string',
    default: '0s',
    description: 'Start-up time during which /livez checks do not fail.',
  },
  'max-request-body-bytes': {
    type: 'string',
    default: String(3 * 1024 * 1024),
    description: 'Largest request body accepted (413 above).',
  },
  // HTTP/2 (k8s.io/apiserver secure_serving.go): upstream has the first as a flag and the
  // buffers as constants sized for 99% of request bodies (256 KiB); here all are flags.
  'http2-max-streams-per-connection': {
    type: 'string',
    default: '0',
    description:
      'The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection. Zero means the default of 100 (as upstream: client-go starts with 100).',
  },
  'http2-max-upload-buffer-per-stream': {
    type: 'string',
    default: String(256 * 1024),
    description:
      'HTTP/2 flow-control window of each stream, in bytes (what a client may send on a stream before the server reads it); also the largest frame read.',
  },
  'http2-max-upload-buffer-per-connection': {
    type: 'string',
    default: '0',
    description:
      'HTTP/2 flow-control window of each connection, in bytes. Zero means the per-stream buffer times the streams per connection.',
  },
  'max-requests-inflight': {
    type: 'string',
    default: '400',
    description: 'Concurrent read-only requests (0: unlimited).',
  },
  'max-mutating-requests-inflight': {
    type: 'string',
    default: '200',
    description: 'Concurrent mutating requests (0: unlimited).',
  },
  'enable-priority-and-fairness': {
    type: 'string',
    default: 'true',
    description:
      'Enforce API Priority and Fairness (FlowSchemas and PriorityLevelConfigurations) instead of the plain in-flight limits; --max-requests-inflight plus --max-mutating-requests-inflight are then the seats the priority levels share.',
  },
  'enable-fleet-priority-and-fairness': {
    type: 'string',
    default: 'true',
    description:
      "Share API Priority and Fairness occupancy with the other gateways over NATS (a summary every 200 ms) so that a flow spread over several gateways is held near its share of the fleet and a write's extra seats count the fleet's watchers; false: each gateway accounts alone.",
  },
  'min-request-timeout': {
    type: 'string',
    default: '1800',
    description: 'Longest a watch runs without timeoutSeconds, in seconds.',
  },
  'authorization-mode': {
    type: 'string',
    default: 'RBAC',
    description: 'RBAC (asks the authorizer service), AlwaysAllow or AlwaysDeny.',
  },
  ...authorizerClientFlags(
    'Address of the authorizer service (gRPC), for --authorization-mode=RBAC.'
  ),
  'authorization-cache-authorized-ttl': {
    type: 'string',
    default: '5m',
    description:
      'How long an allow from the authorizer service is reused (0s: never). A change of the RBAC objects it stood on ends it sooner.',
  },
  'authorization-cache-unauthorized-ttl': {
    type: 'string',
    default: '30s',
    description:
      'How long a denial from the authorizer service is reused (0s: never). A change of the RBAC objects it stood on ends it sooner.',
  },
  'storage-request-timeout': {
    type: 'string',
    default: '10s',
    description: 'Deadline of each call to the storage service.',
  },
  'enable-admission-plugins': {
    type: 'string',
    description: enableAdmissionPluginsHelp(),
  },
  'disable-admission-plugins': {
    type: 'string',
    description:
      'Admission plugins to turn off, comma-separated (names as for --enable-admission-plugins).',
  },
  'admission-control': {
    type: 'string',
    description:
      'The admission plugins on, comma-separated, all others off (names as for --enable-admission-plugins).',
    deprecated:
      'Use --enable-admission-plugins or --disable-admission-plugins instead. Will be removed in a future version.',
  },
  'admission-servers': {
    type: 'string',
    description:
      'Address (host:port) of the admission service (gRPC, mutual TLS with the --grpc-* files); required when an admission plugin of the service is enabled. Writes fail (500/503) while it cannot be reached.',
  },
  'certificates-servers': {
    type: 'string',
    description:
      'Address (host:port) of the certificates service (gRPC, mutual TLS with the --grpc-* files): every write of a CertificateSigningRequest is checked there (its PKCS#10 request, CertificateApproval, CertificateSigning, CertificateSubjectRestriction). Without it, or while it cannot be reached, CSR writes fail with 503; other kinds are unaffected.',
  },
  'admission-request-timeout': {
    type: 'string',
    default: '35s',
    description:
      'Deadline of each call to the admission service (its webhooks may take up to 30s each).',
  },
  'webhook-service-addresses': {
    type: 'string',
    default: '',
    description:
      'How the gateway reaches a webhook named by clientConfig.service (the conversion webhooks of CustomResourceDefinitions), as there is no cluster DNS: comma-separated <name>.<namespace>.svc[:<port>]=<host>:<port> (without :<port>, for any port). The TLS server name stays <name>.<namespace>.svc. A service with no entry is dialled by its DNS name.',
  },
  'proxy-client-cert-file': {
    type: 'string',
    description:
      'Client certificate the gateway presents to extension servers when it proxies a request for an APIService that names a service (the front proxy; the extension server trusts it through its requestheader client CA).',
  },
  'proxy-client-key-file': {
    type: 'string',
    description: 'Private key of --proxy-client-cert-file.',
  },
  'service-cluster-ip-range': {
    type: 'string',
    default: '10.0.0.0/24',
    description:
      'CIDR from which Service cluster IPs are allocated; two comma-separated CIDRs of different families make the cluster dual-stack (the first is primary).',
  },
  'service-node-port-range': {
    type: 'string',
    default: '30000-32767',
    description:
      'Port range (both ends included) from which NodePort and LoadBalancer Services get node ports.',
  },
  // authentication: authn/authentication-options.ts
  ...authenticationFlags,
  // audit: audit/audit-options.ts
  ...auditFlags,
  ...kubeletClientFlags,
  'runtime-config': {
    type: 'string',
    default: '',
    description:
      'A set of key=value pairs that enable or disable built-in APIs: <group>/<version> or <group>/<version>/<resource> (core: v1 or api/v1), api/all, api/ga, api/beta, api/alpha; a missing value means true. Alpha versions are off by default, betas off unless introduced before 1.22.',
  },
  'upstream-group-aliases': {
    type: 'string',
    default: 'true',
    description:
      "Accept requests under upstream Kubernetes' names of the groups served as *.orch.io (rbac.authorization.k8s.io, authorization.k8s.io, certificates.k8s.io, ...) as aliases of those groups, as kubectl's typed commands send them; never listed in discovery.",
  },
  profiling: {
    type: 'string',
    default: 'true',
    description:
      'Enable profiling via web interface host:port/debug/pprof/ (a CPU profile, a heap snapshot) and /debug/flags/v (the log level at runtime), on the API port behind authorization.',
  },
  ...loggingFlags(),
  ...featureGateFlags(),
  ...showHiddenMetricsFlags(),
} as const;

/** The raw flag values. */
export type GatewayOptions = FlagValues<typeof gatewayFlags>;

/** HTTP/2 settings of the serving port (upstream's http2.Server fields). */
export interface Http2Options {
  /** SETTINGS_MAX_CONCURRENT_STREAMS. */
  maxStreamsPerConnection: number;
  /** SETTINGS_INITIAL_WINDOW_SIZE, and SETTINGS_MAX_FRAME_SIZE. */
  maxUploadBufferPerStream: number;
  /** The connection's receive window. */
  maxUploadBufferPerConnection: number;
  /**
   * A connection without a stream this long gets GOAWAY (upstream's http2.Server IdleTimeout of
   * 90 s, which kube-apiserver keeps; no flag, as upstream).
   */
  idleTimeoutMs: number;
}

/** Defaults filled and values derived; `problems` are derivations that failed (see validate). */
export interface CompletedGatewayOptions {
  address: string;
  port: number;
  tls: TlsFiles | undefined;
  serving: SecureServingOptions;
  storageAddress: string;
  grpcTls: TlsFiles | undefined;
  natsUrls: string[];
  shutdownDelayMs: number;
  livezGraceMs: number;
  maxBodyBytes: number;
  http2: Http2Options;
  maxReadOnlyInFlight: number;
  maxMutatingInFlight: number;
  maxWatchSeconds: number;
  storageTimeoutMs: number;
  authorizationMode: string;
  authorizerAddress: string;
  authorizationCache: { authorizedTtlMs: number; unauthorizedTtlMs: number };
  authn: AuthenticationConfig;
  /** --audit-*. */
  audit: AuditOptions;
  /** The enabled admission plugins, in the chain's order. */
  admissionPlugins: PluginName[];
  /** host:port of the admission service; '' when none. */
  admissionAddress: string;
  admissionTimeoutMs: number;
  /** '' when not given: CSR writes are then refused (503). */
  certificatesAddress: string;
  /** --webhook-service-addresses: `<name>.<namespace>.svc[:<port>]` to `host:port`. */
  webhookServiceAddresses: Readonly<Record<string, string>>;
  /** --proxy-client-cert-file and --proxy-client-key-file; '' when not given. */
  proxyClient: { certFile: string; keyFile: string };
  /** --service-cluster-ip-range and --service-node-port-range. */
  serviceRanges: ServiceRanges;
  /** --kubelet-*: how pods/log reaches a node's agent. */
  kubeletClient: KubeletClientOptions;
  /** The resource definitions served, after --runtime-config. */
  resources: ResourceDefinition[];
  /** --upstream-group-aliases. */
  upstreamGroupAliases: boolean;
  /** --profiling: /debug/pprof/* and /debug/flags/v served. */
  profiling: boolean;
  /** --enable-priority-and-fairness. */
  enablePriorityAndFairness: boolean;
  /** --enable-fleet-priority-and-fairness. */
  enableFleetPriorityAndFairness: boolean;
  logLevel: LogLevel;
  /** --feature-gates: the gates, the warnings to print at start, the flag's errors. */
  featureGates: FeatureGates;
  /** Other warnings to print at start (a flag another one overrides). */
  warnings: string[];
  /** --show-hidden-metrics-for-version ('' when not given). */
  showHiddenMetricsForVersion: string;
  problems: string[];
}

/** Options that passed validation: the authorization mode is one of the three. */
export type ValidGatewayOptions = CompletedGatewayOptions & {
  authorizationMode: 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';
};

export function parseGatewayOptions(argv?: string[]): GatewayOptions {
  return parseFlags('orch-gateway', gatewayFlags, argv);
}

const commaList = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export function completeGatewayOptions(f: GatewayOptions): CompletedGatewayOptions {
  const problems: string[] = [...validateGrpcClientTls(f)];
  const serving = secureServingOptions(f);
  const admission = admissionPlugins(f);
  problems.push(...admission.errors);
  const duration = (flag: keyof GatewayOptions & string, fallback: string): number =>
    deriveDuration(problems, flag, f[flag] as string | undefined, fallback);
  const authorizationMode = f['authorization-mode'] ?? 'RBAC';
  const { authn, warnings } = derive(
    problems,
    '',
    () => applyAuthorization(authenticationConfig(f), authorizationMode),
    { authn: undefined as never, warnings: [] }
  );
  return {
    address: serving.bindAddress,
    port: serving.securePort,
    tls: serving.tls,
    serving,
    storageAddress: f['storage-servers'] ?? '',
    grpcTls: grpcClientTls(f),
    natsUrls: natsUrls(f),
    shutdownDelayMs: duration('shutdown-delay-duration', '0s'),
    livezGraceMs: duration('livez-grace-period', '0s'),
    maxBodyBytes: Number(f['max-request-body-bytes']),
    http2: http2Options(f),
    maxReadOnlyInFlight: Number(f['max-requests-inflight']),
    maxMutatingInFlight: Number(f['max-mutating-requests-inflight']),
    maxWatchSeconds: Number(f['min-request-timeout']),
    storageTimeoutMs: duration('storage-request-timeout', '10s'),
    authorizationMode,
    authorizerAddress: f['authorizer-servers'] ?? '',
    authorizationCache: {
      authorizedTtlMs: duration('authorization-cache-authorized-ttl', '5m'),
      unauthorizedTtlMs: duration('authorization-cache-unauthorized-ttl', '30s'),
    },
    authn,
    audit: completeAuditOptions(f, problems),
    admissionPlugins: admission.names,
    admissionAddress: f['admission-servers'] ?? '',
    admissionTimeoutMs: duration('admission-request-timeout', '35s'),
    certificatesAddress: f['certificates-servers'] ?? '',
    kubeletClient: kubeletClientOptions(f, duration('kubelet-timeout', '5s'), problems),
    webhookServiceAddresses: derive(
      problems,
      'webhook-service-addresses',
      () => parseServiceAddresses(f['webhook-service-addresses'] ?? ''),
      {}
    ),
    proxyClient: {
      certFile: f['proxy-client-cert-file'] ?? '',
      keyFile: f['proxy-client-key-file'] ?? '',
    },
    serviceRanges: derive(
      problems,
      '',
      () => parseServiceRanges(f['service-cluster-ip-range'], f['service-node-port-range']),
      parseServiceRanges('10.0.0.0/24', '30000-32767')
    ),
    resources: derive(
      problems,
      'runtime-config',
      () => enabledResources(builtinResources, f['runtime-config'] ?? ''),
      []
    ),
    upstreamGroupAliases: derive(
      problems,
      '',
      () => parseBool('upstream-group-aliases', f['upstream-group-aliases'], true),
      true
    ),
    profiling: derive(problems, '', () => parseBool('profiling', f['profiling'], true), true),
    enablePriorityAndFairness: derive(
      problems,
      '',
      () => parseBool('enable-priority-and-fairness', f['enable-priority-and-fairness'], true),
      true
    ),
    enableFleetPriorityAndFairness: derive(
      problems,
      '',
      () =>
        parseBool(
          'enable-fleet-priority-and-fairness',
          f['enable-fleet-priority-and-fairness'],
          true
        ),
      true
    ),
    logLevel: logLevel(f),
    featureGates: completeFeatureGates(f['feature-gates']),
    warnings,
    showHiddenMetricsForVersion: f['show-hidden-metrics-for-version'] ?? '',
    problems,
  };
}

/**
 * The admission plugins on: --enable-admission-plugins and --disable-admission-plugins over the
 * default set, or the deprecated --admission-control naming every plugin on (upstream's
 * computePluginNames: the others are disabled); the two forms exclude each other.
 */
function admissionPlugins(f: GatewayOptions): ReturnType<typeof enabledPluginNames> {
  const enable = commaList(f['enable-admission-plugins']);
  const disable = commaList(f['disable-admission-plugins']);
  const only = commaList(f['admission-control']);
  if (only.length === 0) return enabledPluginNames(enable, disable);
  if (enable.length > 0 || disable.length > 0)
    return {
      names: [],
      errors: [
        'admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive',
      ],
    };
  return enabledPluginNames(
    only,
    allOrderedPlugins.filter((n) => !only.includes(n))
  );
}

/** --webhook-service-addresses: `key=host:port` pairs, each checked as the admission service's. */
export function parseServiceAddresses(flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of commaList(flag)) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? undefined : pair.slice(eq + 1);
    const problem = serviceAddressProblem(key, value);
    if (problem) throw new Error(`${JSON.stringify(pair)}: ${problem}`);
    out[key] = value!;
  }
  return out;
}

/** Every error at once. */
export function validateGatewayOptions(o: CompletedGatewayOptions): string[] {
  const errors = [
    ...validateSecureServing(o.serving, { tlsRequired: true, server: 'gateway' }),
    ...o.problems,
    ...validateNatsUrls(o.natsUrls),
    ...validateLogLevel(o.logLevel),
    ...o.featureGates.errors,
    ...validateShowHiddenMetricsVersion(o.showHiddenMetricsForVersion),
  ];
  const mode = o.authorizationMode;
  if (mode !== 'RBAC' && mode !== 'AlwaysAllow' && mode !== 'AlwaysDeny') {
    errors.push(
      `--authorization-mode must be RBAC, AlwaysAllow or AlwaysDeny, not ${JSON.stringify(mode)}`
    );
  }
  if (mode === 'RBAC' && !o.authorizerAddress) {
    errors.push('--authorization-mode=RBAC needs --authorizer-servers');
  }
  const inService = o.admissionPlugins.filter((n) => isPlacedIn(n, 'admission'));
  if (inService.length > 0 && !o.admissionAddress) {
    errors.push(
      `admission plugins ${inService.join(', ')} run in the admission service: they need --admission-servers`
    );
  }
  errors.push(...validateHttp2(o.http2));
  for (const [flag, n] of [
    ['max-request-body-bytes', o.maxBodyBytes],
    ['max-requests-inflight', o.maxReadOnlyInFlight],
    ['max-mutating-requests-inflight', o.maxMutatingInFlight],
    ['min-request-timeout', o.maxWatchSeconds],
  ] as const) {
    if (!Number.isInteger(n) || n < 0) errors.push(`--${flag} must be a non-negative integer`);
  }
  return errors;
}

/** Upstream's defaults: 0 streams is 100; 0 bytes per connection is per stream × streams. */
function http2Options(f: GatewayOptions): Http2Options {
  const streams = Number(f['http2-max-streams-per-connection']);
  const perStream = Number(f['http2-max-upload-buffer-per-stream']);
  const perConnection = Number(f['http2-max-upload-buffer-per-connection']);
  const maxStreamsPerConnection = streams === 0 ? 100 : streams;
  return {
    maxStreamsPerConnection,
    maxUploadBufferPerStream: perStream,
    maxUploadBufferPerConnection:
      perConnection === 0
        ? Math.min(perStream * maxStreamsPerConnection, 2 ** 31 - 1)
        : perConnection,
    idleTimeoutMs: 90_000,
  };
}

/** HTTP/2 limits: a window is at most 2^31-1 bytes, a frame between 16 KiB and 16 MiB. */
function validateHttp2(h: Http2Options): string[] {
  const errors: string[] = [];
  if (!Number.isInteger(h.maxStreamsPerConnection) || h.maxStreamsPerConnection < 0)
    errors.push('--http2-max-streams-per-connection must be a non-negative integer');
  const perStream = h.maxUploadBufferPerStream;
  if (!Number.isInteger(perStream) || perStream < 16_384 || perStream > 16_777_215)
    errors.push('--http2-max-upload-buffer-per-stream must be an integer from 16384 to 16777215');
  const perConnection = h.maxUploadBufferPerConnection;
  if (!Number.isInteger(perConnection) || perConnection < 65_535 || perConnection > 2 ** 31 - 1)
    errors.push(
      '--http2-max-upload-buffer-per-connection must be 0 or an integer from 65535 to 2147483647'
    );
  return errors;
}

/** parse → complete → validate; throws InvalidOptionsError with every error. */
export function gatewayOptions(argv?: string[]): ValidGatewayOptions {
  const completed = completeGatewayOptions(parseGatewayOptions(argv));
  const errors = validateGatewayOptions(completed);
  if (errors.length) throw new InvalidOptionsError('orch-gateway', errors);
  return completed as ValidGatewayOptions;
}

/** The help of --enable-admission-plugins, from the one list of plugins. */
function enableAdmissionPluginsHelp(): string {
  const list = (w: 'gateway' | 'admission' | 'certificates'): string =>
    pluginsPlacedIn(w).join(', ');
  return (
    'Admission plugins to turn on beside the default ones, comma-separated. ' +
    `In the gateway: ${list('gateway')} (RBACEscalationPrevention is ours: upstream checks escalation in the RBAC registry, not in admission); ` +
    `in the admission service (--admission-servers): ${list('admission')}; ` +
    `in the certificates service (--certificates-servers): ${list('certificates')}. ` +
    `On by default: ${defaultOnPlugins.join(', ')}. ` +
    'Whatever the order given, they run in the fixed order of @orch/apimachinery/admission.'
  );
}
