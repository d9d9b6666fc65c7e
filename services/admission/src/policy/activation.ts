// The CEL variables of one admission request (k8s.io/apiserver/pkg/admission/plugin/cel/
// activation.go, CreateAdmissionRequest): `object`, `oldObject` (null when absent) and `request`
// shaped as AdmissionReview.request. `uid` is not given: a request here has none until a
// webhook call makes one. `requestKind`/`requestResource` are the kind and resource (this
// server serves one version per kind, see matching/matcher.ts).
import { toCelValue } from '@orch/apimachinery/cel';

import type { AdmissionRequest } from '../interfaces.js';

/** `request` as CEL sees it. */
export function celRequest(req: AdmissionRequest): Record<string, unknown> {
  const kind = { group: req.kind.group, version: req.kind.version, kind: req.kind.kind };
  const resource = {
    group: req.resource.group,
    version: req.resource.version,
    resource: req.resource.resource,
  };
  return {
    kind,
    resource,
    subResource: req.subResource,
    requestKind: kind,
    requestResource: resource,
    requestSubResource: req.subResource,
    name: req.name,
    namespace: req.namespace,
    operation: req.operation,
    userInfo: {
      username: req.userInfo.name,
      uid: req.userInfo.uid,
      groups: [...req.userInfo.groups],
      extra: Object.fromEntries(Object.entries(req.userInfo.extra).map(([k, v]) => [k, [...v]])),
    },
    dryRun: req.dryRun,
    options: req.options === undefined ? null : toCelValue(req.options),
  };
}

/** object, oldObject and request of `req`. */
export function requestActivation(req: AdmissionRequest): Record<string, unknown> {
  return {
    object: req.object === undefined ? null : toCelValue(req.object),
    oldObject: req.oldObject === undefined ? null : toCelValue(req.oldObject),
    request: celRequest(req),
  };
}
