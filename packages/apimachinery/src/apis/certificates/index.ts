// certificates.orch.io (upstream pkg/apis/certificates): CertificateSigningRequest.
import type { APIGroupDefinition } from '../types.js';
import { certificatesTablePrinters } from './printers.js';
import { certificatesGroup, certificatesResources } from './resources.js';

export const certificates: APIGroupDefinition = {
  name: certificatesGroup,
  resources: certificatesResources,
  tablePrinters: certificatesTablePrinters,
};
