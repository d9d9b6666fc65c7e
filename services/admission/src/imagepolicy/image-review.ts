// The ImageReview kind (imagepolicy.orch.io/v1alpha1; k8s.io/api/imagepolicy/v1alpha1): what the
// plugin posts (spec: containers' images, the pod's image-policy annotations, the namespace) and
// what it reads back (status: allowed, reason, auditAnnotations). The reply's spec is ignored.

export const imageReviewApiVersion = 'imagepolicy.orch.io/v1alpha1';
export const imageReviewKind = 'ImageReview';

export interface ImageReviewSpec {
  containers?: { image: string }[];
  annotations?: Record<string, string>;
  namespace?: string;
}

export interface ImageReviewStatus {
  allowed: boolean;
  reason?: string;
  auditAnnotations?: Record<string, string>;
}

export interface ImageReview {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
  spec: ImageReviewSpec;
  status?: ImageReviewStatus;
}

/** The annotations a pod shares with the backend: keys containing `.image-policy.orch.io/`. */
export function imagePolicyAnnotations(
  all: Record<string, unknown> | undefined
): Record<string, string> {
  const out: Record<string, string> = {};
  // Sorted, as Go's encoding/json writes maps: the spec's JSON is the cache key.
  for (const key of Object.keys(all ?? {}).sort()) {
    const value = all?.[key];
    if (key.includes('.image-policy.orch.io/') && typeof value === 'string') out[key] = value;
  }
  return out;
}

/** A review spec with upstream's omitempty fields left out when empty. */
export function imageReviewSpec(
  images: readonly string[],
  annotations: Record<string, string>,
  namespace: string
): ImageReviewSpec {
  const spec: ImageReviewSpec = {};
  if (images.length > 0) spec.containers = images.map((image) => ({ image }));
  if (Object.keys(annotations).length > 0) spec.annotations = annotations;
  if (namespace) spec.namespace = namespace;
  return spec;
}

/** The request body: upstream writes an empty metadata and a zero status. */
export function newImageReview(spec: ImageReviewSpec): ImageReview {
  return {
    apiVersion: imageReviewApiVersion,
    kind: imageReviewKind,
    metadata: {},
    spec,
    status: { allowed: false },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the status of a backend's reply; throws naming the field when it is not an ImageReview. */
export function readImageReviewStatus(body: unknown): ImageReviewStatus {
  if (!isObject(body)) throw new Error('webhook reply is not an ImageReview object');
  if (body['apiVersion'] !== undefined && body['apiVersion'] !== imageReviewApiVersion) {
    throw new Error(
      `webhook reply apiVersion ${JSON.stringify(body['apiVersion'])}, expected "${imageReviewApiVersion}"`
    );
  }
  if (body['kind'] !== undefined && body['kind'] !== imageReviewKind) {
    throw new Error(
      `webhook reply kind ${JSON.stringify(body['kind'])}, expected "${imageReviewKind}"`
    );
  }
  const status = body['status'] ?? {};
  if (!isObject(status)) throw new Error('webhook reply status: must be an object');
  const allowed = status['allowed'] ?? false;
  if (typeof allowed !== 'boolean') {
    throw new Error(`webhook reply status.allowed: ${JSON.stringify(allowed)} is not a boolean`);
  }
  const out: ImageReviewStatus = { allowed };
  const reason = status['reason'];
  if (reason !== undefined && reason !== null) {
    if (typeof reason !== 'string') {
      throw new Error(`webhook reply status.reason: ${JSON.stringify(reason)} is not a string`);
    }
    if (reason) out.reason = reason;
  }
  const audit = status['auditAnnotations'];
  if (audit !== undefined && audit !== null) {
    if (!isObject(audit) || Object.values(audit).some((v) => typeof v !== 'string')) {
      throw new Error('webhook reply status.auditAnnotations: must be a map of strings');
    }
    out.auditAnnotations = audit as Record<string, string>;
  }
  return out;
}
