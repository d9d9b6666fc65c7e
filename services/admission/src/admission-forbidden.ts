// A plugin's 403 for the write it refuses (k8s.io/apiserver/pkg/admission errors.go NewForbidden):
// `<resource> "<name>" is forbidden: <why>`, the name taken from the object (its name, else its
// generateName, since names are generated after admission), else the request's, else "Unknown".
import { newForbidden } from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import type { AdmissionRequest } from './interfaces.js';

export function admissionForbidden(req: AdmissionRequest, why: string): StatusError {
  const meta = req.object?.metadata as { name?: unknown; generateName?: unknown } | undefined;
  const fromObject =
    typeof meta?.name === 'string' && meta.name !== ''
      ? meta.name
      : typeof meta?.generateName === 'string'
        ? meta.generateName
        : '';
  const name = fromObject || req.name || 'Unknown';
  return newForbidden({ group: req.resource.group, resource: req.resource.resource }, name, why);
}
