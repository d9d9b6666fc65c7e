// The computed defaults of the core group's messages (SetDefaults_* of k8s pkg/apis/core/v1/
// defaults.go), set in code rather than declaratively because they depend on other fields: one
// small function per message, keyed by its full name, run by applyDefaults after the message's
// default_value options (so `type` and `protocol` are already set) and before its children.
// The constant defaults of those functions are default_value options in proto/ instead.
import type { Defaulter } from '../types.js';

type Json = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const objectAt = (obj: Json, key: string): Json | undefined =>
  isPlainObject(obj[key]) ? obj[key] : undefined;

/** The tag of an image reference as parsers.ParseImageName reads it: "latest" when neither a tag nor a digest is given. */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const name = at < 0 ? image : image.slice(0, at);
  const last = name.slice(name.lastIndexOf('/') + 1);
  const colon = last.lastIndexOf(':');
  if (colon >= 0) return last.slice(colon + 1);
  return at < 0 ? 'latest' : '';
}

/** SetDefaults_Container (pkg/apis/core/v1/defaults.go): Always for a :latest (or untagged) image, else IfNotPresent. */
const container: Defaulter = (c) => {
  if (c['imagePullPolicy'] !== undefined && c['imagePullPolicy'] !== '') return;
  const image = typeof c['image'] === 'string' ? c['image'] : '';
  c['imagePullPolicy'] = image !== '' && imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
};

/** SetDefaults_Pod: requests default to limits, per resource; service links are on. Only on Pods, not in templates. */
const pod: Defaulter = (p) => {
  const spec = objectAt(p, 'spec');
  if (!spec) return;
  for (const list of [spec['containers'], spec['initContainers']]) {
    for (const c of Array.isArray(list) ? list : []) {
      const resources = isPlainObject(c) ? objectAt(c, 'resources') : undefined;
      const limits = resources && objectAt(resources, 'limits');
      if (!resources || !limits) continue;
      const requests = (resources['requests'] = objectAt(resources, 'requests') ?? {});
      for (const [name, q] of Object.entries(limits))
        if (requests[name] === undefined) requests[name] = q;
    }
  }
  spec['enableServiceLinks'] ??= true;
};

/** SetDefaults_Service, its spec part: traffic policies by type, node ports for load balancers. */
const serviceSpec: Defaulter = (spec) => {
  const type = spec['type'];
  const externalIPs = spec['externalIPs'];
  const externallyAccessible =
    type === 'NodePort' ||
    type === 'LoadBalancer' ||
    (type === 'ClusterIP' && Array.isArray(externalIPs) && externalIPs.length > 0);
  if (externallyAccessible && (spec['externalTrafficPolicy'] ?? '') === '')
    spec['externalTrafficPolicy'] = 'Cluster';
  if (
    spec['internalTrafficPolicy'] === undefined &&
    (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer')
  )
    spec['internalTrafficPolicy'] = 'Cluster';
  if (type === 'LoadBalancer') spec['allocateLoadBalancerNodePorts'] ??= true;
};

/** SetDefaults_Service, its ports part: targetPort is the port when unset, 0 or "". */
const servicePort: Defaulter = (port) => {
  const target = port['targetPort'];
  if ((target === undefined || target === 0 || target === '') && typeof port['port'] === 'number')
    port['targetPort'] = port['port'];
};

const nonEmpty = (v: unknown): v is Json => isPlainObject(v) && Object.keys(v).length > 0;
const metadata = (o: Json): Json =>
  isPlainObject(o['metadata']) ? o['metadata'] : (o['metadata'] = {});

/** SetDefaults_ReplicationController: selector and labels from the template's labels. */
const replicationController: Defaulter = (rc) => {
  const spec = objectAt(rc, 'spec');
  const labels = spec && objectAt(objectAt(spec, 'template') ?? {}, 'metadata')?.['labels'];
  if (!spec || !isPlainObject(labels)) return;
  if (!nonEmpty(spec['selector'])) spec['selector'] = { ...labels };
  const meta = metadata(rc);
  if (!nonEmpty(meta['labels'])) meta['labels'] = { ...labels };
};

export const coreDefaulters: readonly (readonly [string, Defaulter])[] = [
  ['orch.api.core.v1.Container', container],
  ['orch.api.core.v1.Pod', pod],
  ['orch.api.core.v1.ServiceSpec', serviceSpec],
  ['orch.api.core.v1.ServicePort', servicePort],
  ['orch.api.core.v1.ReplicationController', replicationController],
];
