// admissionregistration.orch.io (upstream pkg/apis/admissionregistration): webhook
// configurations in v1, the validating admission policies in v1 and v1beta1.
import { admissionRegistrationGroup } from '../../registry/admissionregistration-types.js';
import type { APIGroupDefinition } from '../types.js';
import { admissionregistrationTablePrinters } from './printers.js';
import { addAdmissionRegistrationConversions } from './conversion.js';
import { admissionregistrationResources } from './resources.js';

export const admissionregistration: APIGroupDefinition = {
  name: admissionRegistrationGroup,
  resources: admissionregistrationResources,
  addConversions: addAdmissionRegistrationConversions,
  tablePrinters: admissionregistrationTablePrinters,
};
