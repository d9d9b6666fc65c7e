// What the certificate admission plugins of this service are given (upstream's
// admission.ValidationInterface for plugin/pkg/admission/certificates/*): one write's attributes
// and the authorizer they ask. Validate only: none of the three mutates.
import type {
  AdmissionInterface,
  CertificatePluginName,
  Plugins,
  ValidationInterface,
} from '@orch/apimachinery/admission';
import type { Attributes, AuthorizationResult } from '@orch/apimachinery/auth';
import type { AdmissionCallRequest } from '@orch/apimachinery/grpc';

/** The plugins of this service (those the one list places here). */
export type { CertificatePluginName };

export interface CertificatePluginDeps {
  authorize(a: Attributes): Promise<AuthorizationResult>;
}

/**
 * One plugin: the plugin contract of the three processes (`@orch/apimachinery/admission`) over
 * the Admit call's request, validating only. `validate` throws a StatusError (403) to deny and
 * returns when the write may go on.
 */
export interface CertificatePlugin
  extends AdmissionInterface<CertificatePluginName>, ValidationInterface<AdmissionCallRequest> {}

export type CertificatePluginFactory = (deps: CertificatePluginDeps) => CertificatePlugin;

/**
 * The service's registered plugins. Each plugin module exports its name and
 * `register(plugins)`; `plugins.ts` registers them all.
 */
export type CertificatePlugins = Plugins<'certificates', CertificatePluginFactory>;

/** certificates.orch.io, the group of the kind and of the `signers` pseudo-resource. */
export const certificatesGroup = 'certificates.orch.io';
export const csrResource = 'certificatesigningrequests';

/** Is this a write of a CertificateSigningRequest (any subresource)? */
export function isCsrWrite(req: AdmissionCallRequest): boolean {
  return req.resource.group === certificatesGroup && req.resource.resource === csrResource;
}
