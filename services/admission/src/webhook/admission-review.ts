// The AdmissionReview a webhook is sent and the checks on its reply. Upstream:
// k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go
// (CreateAdmissionObjects, VerifyAdmissionResponse).
import type { AdmissionRequest } from '../interfaces.js';
import type { MatchedResource } from '../matching/index.js';

export const admissionGroup = 'admission.orch.io';
/** The AdmissionReview versions this server speaks, in its order of preference. */
export const supportedReviewVersions = ['v1', 'v1beta1'] as const;
export type ReviewVersion = (typeof supportedReviewVersions)[number];

/** The first of a webhook's admissionReviewVersions this server speaks (upstream's choice). */
export function chooseReviewVersion(
  versions: readonly string[] | null | undefined
): ReviewVersion | undefined {
  return (versions ?? []).find((v): v is ReviewVersion =>
    (supportedReviewVersions as readonly string[]).includes(v)
  );
}

/**
 * The review sent: `request` carries every attribute, `uid` fresh per call; `kind` and
 * `resource` are the ones the webhook's rules matched (`matched`, default the request's own),
 * `requestKind` and `requestResource` the request's.
 */
export function createAdmissionReview(
  req: AdmissionRequest,
  uid: string,
  version: ReviewVersion,
  matched: MatchedResource = req
): Record<string, unknown> {
  const gvk = (k: MatchedResource['kind']) => ({
    group: k.group,
    version: k.version,
    kind: k.kind,
  });
  const gvr = (r: MatchedResource['resource']) => ({
    group: r.group,
    version: r.version,
    resource: r.resource,
  });
  const kind = gvk(matched.kind);
  const resource = gvr(matched.resource);
  const userInfo: Record<string, unknown> = { username: req.userInfo.name };
  if (req.userInfo.uid) userInfo['uid'] = req.userInfo.uid;
  if (req.userInfo.groups.length > 0) userInfo['groups'] = req.userInfo.groups;
  if (Object.keys(req.userInfo.extra).length > 0) userInfo['extra'] = req.userInfo.extra;
  const request: Record<string, unknown> = { uid, kind, resource };
  if (req.subResource) request['subResource'] = req.subResource;
  request['requestKind'] = gvk(req.kind);
  request['requestResource'] = gvr(req.resource);
  if (req.subResource) request['requestSubResource'] = req.subResource;
  if (req.name) request['name'] = req.name;
  if (req.namespace) request['namespace'] = req.namespace;
  request['operation'] = req.operation;
  request['userInfo'] = userInfo;
  request['object'] = req.object ?? null;
  request['oldObject'] = req.oldObject ?? null;
  request['dryRun'] = req.dryRun;
  request['options'] = req.options ?? null;
  return { apiVersion: `${admissionGroup}/${version}`, kind: 'AdmissionReview', request };
}

/** A checked reply. */
export interface AdmissionResponse {
  allowed: boolean;
  status?: { code?: number; message?: string; reason?: string };
  /** The decoded JSON Patch bytes (mutating webhooks only). */
  patch?: Buffer;
  patchType?: string;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks a decoded reply: an AdmissionReview of the version sent, a `response` whose uid is
 * the request's and whose fields have their types. Throws an Error saying what is wrong.
 * A patch without patchType is refused in v1 and is a JSONPatch in v1beta1, as upstream.
 */
export function verifyAdmissionResponse(
  uid: string,
  version: ReviewVersion,
  mutating: boolean,
  review: unknown
): AdmissionResponse {
  if (!isRecord(review)) throw new Error('the reply is not a JSON object');
  const apiVersion = `${admissionGroup}/${version}`;
  if (review['apiVersion'] !== apiVersion || review['kind'] !== 'AdmissionReview') {
    throw new Error(
      `expected webhook response of ${apiVersion}, Kind=AdmissionReview, got ${String(review['apiVersion'])}, Kind=${String(review['kind'])}`
    );
  }
  const r = review['response'];
  if (r === undefined || r === null) throw new Error('webhook response was absent');
  if (!isRecord(r)) throw new Error('response: must be an object');
  if (r['uid'] !== uid)
    throw new Error(`expected response.uid="${uid}", got "${String(r['uid'])}"`);
  if (typeof r['allowed'] !== 'boolean') throw new Error('response.allowed: must be a boolean');
  const out: AdmissionResponse = { allowed: r['allowed'], warnings: [], auditAnnotations: {} };

  const status = r['status'];
  if (status !== undefined && status !== null) {
    if (!isRecord(status)) throw new Error('response.status: must be an object');
    out.status = {};
    if (status['code'] !== undefined) {
      if (typeof status['code'] !== 'number')
        throw new Error('response.status.code: must be an integer');
      out.status.code = status['code'];
    }
    if (typeof status['message'] === 'string') out.status.message = status['message'];
    if (typeof status['reason'] === 'string') out.status.reason = status['reason'];
  }

  const warnings = r['warnings'];
  if (warnings !== undefined && warnings !== null) {
    if (!Array.isArray(warnings) || warnings.some((w) => typeof w !== 'string')) {
      throw new Error('response.warnings: must be a list of strings');
    }
    out.warnings = warnings as string[];
  }
  const annotations = r['auditAnnotations'];
  if (annotations !== undefined && annotations !== null) {
    if (!isRecord(annotations) || Object.values(annotations).some((v) => typeof v !== 'string')) {
      throw new Error('response.auditAnnotations: must be a map of strings');
    }
    out.auditAnnotations = annotations as Record<string, string>;
  }

  if (mutating && r['patch'] !== undefined && r['patch'] !== null && r['patch'] !== '') {
    if (typeof r['patch'] !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(r['patch'])) {
      throw new Error('response.patch: must be base64');
    }
    out.patch = Buffer.from(r['patch'], 'base64');
    const patchType = r['patchType'];
    if (patchType === undefined || patchType === null) {
      if (version === 'v1')
        throw new Error('webhook returned response.patch but not response.patchType');
      out.patchType = 'JSONPatch';
    } else {
      if (typeof patchType !== 'string') throw new Error('response.patchType: must be a string');
      out.patchType = patchType;
    }
  }
  return out;
}
