// The upstream Kubernetes names of the API groups this server renames (`<x>.k8s.io` served here
// as `<x>.orch.io`). Upstream clients compile some of those names in (kubectl's typed commands,
// client-go's typed clients); the gateway accepts them as aliases (services/gateway/src/groupalias/).
// Groups upstream names without `k8s.io` (`apps`, `batch`, `autoscaling`, `policy`) and the core
// group are served under their upstream names already. `meta.k8s.io` (Table,
// PartialObjectMetadata) is negotiated on its own (gateway negotiation/negotiate.ts).
import { parseApiVersion } from './group-version.js';

/** Upstream group → the group it is served as here. */
export const upstreamGroupAliases: ReadonlyMap<string, string> = new Map([
  ['admissionregistration.k8s.io', 'admissionregistration.orch.io'],
  ['apiextensions.k8s.io', 'apiextensions.orch.io'],
  ['apiregistration.k8s.io', 'apiregistration.orch.io'],
  ['authentication.k8s.io', 'authentication.orch.io'],
  ['authorization.k8s.io', 'authorization.orch.io'],
  ['certificates.k8s.io', 'certificates.orch.io'],
  ['coordination.k8s.io', 'coordination.orch.io'],
  ['discovery.k8s.io', 'discovery.orch.io'],
  ['events.k8s.io', 'events.orch.io'],
  ['flowcontrol.apiserver.k8s.io', 'flowcontrol.apiserver.orch.io'],
  ['networking.k8s.io', 'networking.orch.io'],
  ['node.k8s.io', 'node.orch.io'],
  ['rbac.authorization.k8s.io', 'rbac.authorization.orch.io'],
  ['scheduling.k8s.io', 'scheduling.orch.io'],
  ['storage.k8s.io', 'storage.orch.io'],
]);

const upstreamOf: ReadonlyMap<string, string> = new Map(
  [...upstreamGroupAliases].map(([upstream, canonical]) => [canonical, upstream])
);

/** The group served here for a group name: an upstream alias's `orch.io` group, any other group itself. */
export function canonicalGroup(group: string): string {
  return upstreamGroupAliases.get(group) ?? group;
}

/** The upstream name of a group served here: a renamed group's `k8s.io` name, any other group itself. */
export function upstreamGroup(group: string): string {
  return upstreamOf.get(group) ?? group;
}

/** True for an upstream name this server serves under another name. */
export function isUpstreamGroupAlias(group: string): boolean {
  return upstreamGroupAliases.has(group);
}

/** An apiVersion (`<group>/<version>` or `v1`) with its group mapped by `map`; others as given. */
export function mapApiVersionGroup(apiVersion: string, map: (group: string) => string): string {
  const gv = parseApiVersion(apiVersion);
  if (!gv || gv.group === '') return apiVersion;
  const group = map(gv.group);
  return group === gv.group ? apiVersion : `${group}/${gv.version}`;
}
