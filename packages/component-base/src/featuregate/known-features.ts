// The feature gates of upstream's release 1.32 (the version /version reports) whose behaviour
// exists in this server (k8s.io/apiserver/pkg/features/kube_features.go,
// pkg/features/kube_features.go). Every service knows all of them, as every upstream component
// registers the shared apiserver gates; a gate switches behaviour only where it exists.
import type { FeatureSpec } from './feature-gate.js';

/** /api and /apis in the aggregated form when asked (GA since 1.30, locked). */
export const aggregatedDiscoveryEndpoint = 'AggregatedDiscoveryEndpoint';
/** Lists in chunks, limit and continue (GA since 1.29, locked; upstream removes it in 1.33). */
export const apiListChunking = 'APIListChunking';
/** Consistent (resourceVersion="") reads served by the watch cache once it reached storage's revision. */
export const consistentListFromCache = 'ConsistentListFromCache';
/** Watch BOOKMARK events (GA since 1.17, locked). */
export const watchBookmark = 'WatchBookmark';
/** matchConditions of admission webhooks (GA since 1.30, locked). */
export const admissionWebhookMatchConditions = 'AdmissionWebhookMatchConditions';

export const defaultFeatureGates: Readonly<Record<string, FeatureSpec>> = {
  [admissionWebhookMatchConditions]: { default: true, preRelease: 'GA', lockToDefault: true },
  [aggregatedDiscoveryEndpoint]: { default: true, preRelease: 'GA', lockToDefault: true },
  [apiListChunking]: { default: true, preRelease: 'GA', lockToDefault: true },
  [consistentListFromCache]: { default: true, preRelease: 'BETA' },
  [watchBookmark]: { default: true, preRelease: 'GA', lockToDefault: true },
};
