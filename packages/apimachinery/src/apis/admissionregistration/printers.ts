// The named printers of the admissionregistration kinds' Table columns, as kubectl's server-side
// printMutatingWebhook, printValidatingWebhook, printValidatingAdmissionPolicy and
// printValidatingAdmissionPolicyBinding (k8s pkg/printers/internalversion/printers.go).
import type { TablePrinter } from '../types.js';
import { arr, at, formatLabelSelector, str } from '../table-cells.js';

type Json = Record<string, unknown>;

export const admissionregistrationTablePrinters: Readonly<Record<string, TablePrinter>> = {
  webhookCount: (o) => arr(o['webhooks']).length,
  validationCount: (o) => arr(at(o, 'spec.validations')).length,
  paramKind: (o) => {
    const pk = at(o, 'spec.paramKind') as Json | undefined;
    return pk ? `${str(pk['apiVersion'])}/${str(pk['kind'])}` : '<unset>';
  },
  paramRef: (o) => {
    const pr = at(o, 'spec.paramRef') as Json | undefined;
    if (!pr) return '<unset>';
    if (str(pr['name']) !== '')
      return str(pr['namespace']) !== ''
        ? `${str(pr['namespace'])}/${str(pr['name'])}`
        : `*/${str(pr['name'])}`;
    return pr['selector'] ? formatLabelSelector(pr['selector']) : '<unset>';
  },
};
