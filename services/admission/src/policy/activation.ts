// The CEL variables of one admission request (k8s.io/apiserver/pkg/admission/plugin/cel/
// activation.go, CreateAdmissionRequest): `object`, `oldObject` (null when absent) and `request`
// shaped as AdmissionReview.request. `uid` is not given: a request here has none until a
// webhook call makes one. `kind`/`resource` are the ones the policy matched (another version
// under matchPolicy Equivalent, see matching/matcher.ts), `requestKind`/`requestResource` the
// request's.
import { toCelValue } from '@orch/apimachinery/cel';

import type { AdmissionRequest } from '../interfaces.js';
import type { MatchedResource } from '../matching/index.js';

const gvk = (k: MatchedResource['kind']) => ({ group: k.group, version: k.version, kind: k.kind });
const gvr = (r: MatchedResource['resource']) => ({
  group: r.group,
  version: r.version,
  resource: r.resource,
});

/** `request` as CEL sees it, matched as `matched` (default: the request's own kind). */
export function celRequest(
  req: AdmissionRequest,
  matched: MatchedResource = req
): Record<string, unknown> {
  return {
    kind: gvk(matched.kind),
    resource: gvr(matched.resource),
    subResource: req.subResource,
    requestKind: gvk(req.kind),
    requestResource: gvr(req.resource),
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

/** object, oldObject and request of `req` (its objects at the matched kind's version). */
export function requestActivation(
  req: AdmissionRequest,
  matched: MatchedResource = req
): Record<string, unknown> {
  return {
    object: req.object === undefined ? null : toCelValue(req.object),
    oldObject: req.oldObject === undefined ? null : toCelValue(req.oldObject),
    request: celRequest(req, matched),
  };
}
