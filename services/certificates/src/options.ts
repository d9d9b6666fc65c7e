// Flags of the certificates service (options → complete → validate; config.ts builds from them).
// The service answers the gateway's CertificateSigningRequest checks over gRPC (the request's
// PKCS#10 parse and signature, the three Certificate admission plugins, which ask the authorizer)
// and acts on the public API through --kubeconfig with its own identity.
import {
  InvalidOptionsError,
  authorizerClientFlags,
  logLevel,
  loggingFlags,
  parseFlags,
  secureServingFlags,
  secureServingOptions,
  validateLogLevel,
  validateSecureServing,
} from '@orch/component-base/flags';
import {
  operationalBesideFlags,
  operationalOptionsBeside,
  validateOperational,
} from '@orch/component-base/operational';
import type { OperationalOptions } from '@orch/component-base/operational';
import type { FlagValues, SecureServingOptions } from '@orch/component-base/flags';
import type { LogLevel } from '@orch/component-base/logs';
import {
  certificateControllersFlags,
  completeCertificateControllersOptions,
  validateCertificateControllersOptions,
} from './controllers/index.js';
import type { CertificateControllersOptions } from './controllers/index.js';

export const certificatesFlags = {
  ...secureServingFlags({
    port: '6504',
    server: 'gRPC server',
    certDescription:
      'Serving certificate (mutual TLS); also the client certificate to the authorizer.',
    clientCaDescription:
      'CA that client certificates must chain to (and that the authorizer is verified against).',
  }),
  ...authorizerClientFlags(
    'Address of the authorizer service (gRPC): CertificateApproval and CertificateSigning ask it whether the requester may approve or sign for a signer.'
  ),
  kubeconfig: {
    type: 'string',
    description:
      "Kubeconfig of the public API (a gateway) and this service's client certificate: what its controllers read and write through.",
  },
  ...certificateControllersFlags,
  ...operationalBesideFlags(),
  ...loggingFlags(),
} as const;

/** The raw flag values. */
export type CertificatesOptions = FlagValues<typeof certificatesFlags>;

export interface CompletedCertificatesOptions {
  serving: SecureServingOptions;
  authorizerAddress: string;
  /** '' when not given: then nothing acts on the public API. */
  kubeconfig: string;
  /** The operational server: metrics, health, profiling, the log level. */
  operational: OperationalOptions;
  logLevel: LogLevel;
  /** The controllers' flags (--controllers, --signers, --cluster-signing-*, --leader-elect-*). */
  controllers: CertificateControllersOptions;
  /** Malformed controller flags found while completing them. */
  controllersProblems: string[];
}

export function parseCertificatesOptions(argv?: string[]): CertificatesOptions {
  return parseFlags('orch-certificates', certificatesFlags, argv);
}

export function completeCertificatesOptions(f: CertificatesOptions): CompletedCertificatesOptions {
  const controllersProblems: string[] = [];
  return {
    controllers: completeCertificateControllersOptions(f, controllersProblems),
    controllersProblems,
    serving: secureServingOptions(f),
    authorizerAddress: f['authorizer-servers'] ?? '',
    kubeconfig: f.kubeconfig ?? '',
    operational: operationalOptionsBeside(f, secureServingOptions(f).tls),
    logLevel: logLevel(f),
  };
}

/** Every error at once. */
export function validateCertificatesOptions(o: CompletedCertificatesOptions): string[] {
  const errors: string[] = [];
  if (!o.authorizerAddress) {
    errors.push(
      '--authorizer-servers is required: CertificateApproval and CertificateSigning ask the authorizer'
    );
  }
  errors.push(...o.controllersProblems);
  if (o.kubeconfig) errors.push(...validateCertificateControllersOptions(o.controllers));
  errors.push(
    ...validateSecureServing(o.serving),
    ...validateOperational(o.operational, 'operational-secure-port'),
    ...validateLogLevel(o.logLevel)
  );
  return errors;
}

/** parse → complete → validate; throws InvalidOptionsError with every error. */
export function certificatesOptions(argv?: string[]): CompletedCertificatesOptions {
  const completed = completeCertificatesOptions(parseCertificatesOptions(argv));
  const errors = validateCertificatesOptions(completed);
  if (errors.length) throw new InvalidOptionsError('orch-certificates', errors);
  return completed;
}
