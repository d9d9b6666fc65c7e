// The controllers' flags (upstream kube-controller-manager's --controllers, --cluster-signing-*,
// --leader-elect-*), a fragment the certificates service's options spread into its own, with its
// complete and validate steps; `--signers` names the built-in signers this process serves, so a
// user's own signer (another process using the public API) can take the others.
import { deriveDuration, splitList } from '@orch/component-base/flags';
import {
  completeLeaderElection,
  leaderElectionFlags,
  validateLeaderElection,
} from '@orch/component-base/leaderelection';
import type { LeaderElectionOptions } from '@orch/component-base/leaderelection';
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

/** The certificates service's Lease. */
const leaseDefaults = { resourceName: 'orch-certificates', resourceNamespace: 'orch-system' };

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
  ...leaderElectionFlags(leaseDefaults),
} as const;

export interface CertificateControllersOptions {
  controllers: string[];
  signers: string[];
  clusterSigningCertFile: string;
  clusterSigningKeyFile: string;
  clusterSigningDurationMs: number;
  clusterInfoServer: string;
  leaderElection: LeaderElectionOptions;
}

type Flags = {
  controllers?: string | undefined;
  signers?: string | undefined;
  'cluster-signing-cert-file'?: string | undefined;
  'cluster-signing-key-file'?: string | undefined;
  'cluster-signing-duration'?: string | undefined;
  'cluster-info-server'?: string | undefined;
  'leader-elect'?: string | undefined;
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
    leaderElection: completeLeaderElection(f, problems, leaseDefaults),
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
  errors.push(...validateLeaderElection(o.leaderElection));
  return errors;
}
