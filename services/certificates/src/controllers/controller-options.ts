// The controllers' flags (upstream kube-controller-manager's --controllers, --cluster-signing-*,
// --leader-elect-*), a fragment the certificates service's options spread into its own, with its
// complete and validate steps; `--signers` names the built-in signers this process serves, so a
// user's own signer (another process using the public API) can take the others.
import { deriveDuration, splitList } from '@orch/component-base/flags';
import { clientNodeAgentSignerName, clientSignerName, nodeAgentServingSignerName } from './csr.js';

/** Upstream's controller names; bootstrapsigner and tokencleaner are off unless named (as upstream). */
export const knownControllers = [
  'csrapproving',
  'csrsigning',
  'csrcleaner',
  'bootstrapsigner',
  'tokencleaner',
] as const;
export type ControllerName = (typeof knownControllers)[number];
export const disabledByDefault: ReadonlySet<string> = new Set(['bootstrapsigner', 'tokencleaner']);
export const builtinSigners = [
  clientSignerName,
  clientNodeAgentSignerName,
  nodeAgentServingSignerName,
] as const;

export const certificateControllersFlags = {
  controllers: {
    type: 'string',
    default: '*',
    description: `Controllers to run: "*" for the defaults, "foo" enables foo, "-foo" disables it. All: ${knownControllers.join(', ')}; off by default: ${[...disabledByDefault].join(', ')}.`,
  },
  signers: {
    type: 'string',
    default: builtinSigners.join(','),
    description: 'The built-in signer names the csrsigning controller serves (comma-separated).',
  },
  'cluster-signing-cert-file': {
    type: 'string',
    description: 'PEM CA certificate the built-in signers issue with.',
  },
  'cluster-signing-key-file': {
    type: 'string',
    description: 'PEM (PKCS#8) private key of --cluster-signing-cert-file.',
  },
  'cluster-signing-duration': {
    type: 'string',
    default: '8760h',
    description: 'The longest lifetime of an issued certificate.',
  },
  'cluster-info-server': {
    type: 'string',
    description: "API address written into cluster-info (default: the --kubeconfig's server).",
  },
  'leader-elect': {
    type: 'boolean',
    default: true,
    description: 'Run the controllers only while holding the Lease (replicas take over).',
  },
  'leader-elect-lease-duration': { type: 'string', default: '15s', description: 'Lease duration.' },
  'leader-elect-renew-deadline': {
    type: 'string',
    default: '10s',
    description: 'A leader failing to renew for this long stops leading.',
  },
  'leader-elect-retry-period': {
    type: 'string',
    default: '2s',
    description: 'Interval between acquire and renew attempts.',
  },
  'leader-elect-resource-namespace': {
    type: 'string',
    default: 'orch-system',
    description: 'Namespace of the Lease.',
  },
  'leader-elect-resource-name': {
    type: 'string',
    default: 'orch-certificates',
    description: 'Name of the Lease.',
  },
} as const;

export interface CertificateControllersOptions {
  controllers: string[];
  signers: string[];
  clusterSigningCertFile: string;
  clusterSigningKeyFile: string;
  clusterSigningDurationMs: number;
  clusterInfoServer: string;
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  leaseNamespace: string;
  leaseName: string;
}

type Flags = {
  controllers?: string | undefined;
  signers?: string | undefined;
  'cluster-signing-cert-file'?: string | undefined;
  'cluster-signing-key-file'?: string | undefined;
  'cluster-signing-duration'?: string | undefined;
  'cluster-info-server'?: string | undefined;
  'leader-elect'?: boolean;
  'leader-elect-lease-duration'?: string | undefined;
  'leader-elect-renew-deadline'?: string | undefined;
  'leader-elect-retry-period'?: string | undefined;
  'leader-elect-resource-namespace'?: string | undefined;
  'leader-elect-resource-name'?: string | undefined;
};

/** The complete step; malformed durations are added to `problems`. */
export function completeCertificateControllersOptions(
  f: Flags,
  problems: string[]
): CertificateControllersOptions {
  return {
    controllers: splitList(f.controllers ?? '*').map((s) => s.trim()),
    signers: splitList(f.signers ?? builtinSigners.join(',')).map((s) => s.trim()),
    clusterSigningCertFile: f['cluster-signing-cert-file'] ?? '',
    clusterSigningKeyFile: f['cluster-signing-key-file'] ?? '',
    clusterSigningDurationMs: deriveDuration(
      problems,
      'cluster-signing-duration',
      f['cluster-signing-duration'],
      '8760h'
    ),
    clusterInfoServer: f['cluster-info-server'] ?? '',
    leaderElect: f['leader-elect'] ?? true,
    leaseDurationMs: deriveDuration(
      problems,
      'leader-elect-lease-duration',
      f['leader-elect-lease-duration'],
      '15s'
    ),
    renewDeadlineMs: deriveDuration(
      problems,
      'leader-elect-renew-deadline',
      f['leader-elect-renew-deadline'],
      '10s'
    ),
    retryPeriodMs: deriveDuration(
      problems,
      'leader-elect-retry-period',
      f['leader-elect-retry-period'],
      '2s'
    ),
    leaseNamespace: f['leader-elect-resource-namespace'] ?? 'orch-system',
    leaseName: f['leader-elect-resource-name'] ?? 'orch-certificates',
  };
}

/** Upstream IsControllerEnabled: a name or -name decides; otherwise "*" enables the defaults. */
export function isControllerEnabled(name: string, controllers: readonly string[]): boolean {
  let star = false;
  for (const c of controllers) {
    if (c === name) return true;
    if (c === `-${name}`) return false;
    if (c === '*') star = true;
  }
  return star && !disabledByDefault.has(name);
}

export function validateCertificateControllersOptions(o: CertificateControllersOptions): string[] {
  const errors: string[] = [];
  for (const c of o.controllers) {
    const name = c.startsWith('-') ? c.slice(1) : c;
    if (c !== '*' && !(knownControllers as readonly string[]).includes(name))
      errors.push(
        `--controllers: "${c}" is not a known controller (${knownControllers.join(', ')})`
      );
  }
  for (const s of o.signers)
    if (!(builtinSigners as readonly string[]).includes(s))
      errors.push(`--signers: "${s}" is not a built-in signer (${builtinSigners.join(', ')})`);
  // Neither file: csrsigning is skipped with a log line (upstream); one without the other is a mistake.
  if (!o.clusterSigningCertFile !== !o.clusterSigningKeyFile)
    errors.push('--cluster-signing-cert-file and --cluster-signing-key-file go together');
  if (o.clusterSigningDurationMs <= 0) errors.push('--cluster-signing-duration must be positive');
  if (o.leaderElect && o.renewDeadlineMs >= o.leaseDurationMs)
    errors.push('--leader-elect-renew-deadline must be shorter than --leader-elect-lease-duration');
  if (o.leaderElect && o.retryPeriodMs >= o.renewDeadlineMs)
    errors.push('--leader-elect-retry-period must be shorter than --leader-elect-renew-deadline');
  return errors;
}
