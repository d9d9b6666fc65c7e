// The resources of certificates.orch.io, v1 (upstream pkg/registry/certificates/
// certificates/storage). Certificate signing requests: the gateway serves them; everything
// specific to them (the request's checks, the three Certificate admission plugins, approvers
// and signers) is the certificates service's.
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const certificatesGroup = 'certificates.orch.io';

export const certificatesResources: readonly ResourceDefinition[] = [
  resource(certificatesGroup, 'v1', {
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    singular: 'certificatesigningrequest',
    namespaced: false,
    shortNames: ['csr'],
    subresources: ['status', 'approval'],
    selectableFields: ['spec.signerName'],
  }),
];
