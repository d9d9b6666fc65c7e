// The resources that reach the same stored objects as a request's resource: the other served
// versions of its collection (autoscaling/v1 and v2 HorizontalPodAutoscalers), which a rule under
// matchPolicy Equivalent also matches, and the versioned view of a request for the resource a
// rule matched (its object and old object converted to that version). Upstream:
// k8s.io/apimachinery/pkg/runtime (EquivalentResourceRegistry, keyed by storage prefix) and
// k8s.io/apiserver/pkg/admission/plugin/webhook/generic (VersionedAttributes).
//
// Equivalents are the built-in resources of one stored collection (one storage prefix, as
// upstream's registry is keyed) whose objects the registered conversions convert: the versions
// of a group, and a collection served in two groups (core v1 and events.orch.io/v1 Events,
// upstream's "/events"). A custom resource's versions are served-equivalent-resources.ts's.
import { builtinConversions, builtinResources, storagePrefix } from '@orch/apimachinery/registry';
import type { Conversions, ResourceDefinition } from '@orch/apimachinery/registry';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { GroupVersionKind, GroupVersionResource } from '@orch/apimachinery/schema';

import type { AdmissionRequest } from '../interfaces.js';

/** What matchPolicy Equivalent asks of the served resources (upstream EquivalentResourceMapper). */
export interface EquivalentResourceMapper {
  /** The other resources serving the objects of `resource` (with `subResource`), in served order. */
  equivalentResourcesFor(
    resource: GroupVersionResource,
    subResource: string
  ): readonly GroupVersionResource[];
  /**
   * The kind of a request to `resource` whose object (at the requested resource) is of
   * `requestKind`: the resource's own kind at its version when the object is of that kind, the
   * request's kind otherwise (a subresource of its own kind, such as a Scale, is one version).
   */
  kindFor(resource: GroupVersionResource, requestKind: GroupVersionKind): GroupVersionKind;
  /**
   * Makes what the mapper reads known before a request of `resource` is matched (the custom
   * resource definitions); the built-in mapper needs nothing.
   */
  prepare?(resource: Pick<GroupVersionResource, 'group' | 'resource'>): Promise<void>;
  /** The object at the version of `kind` (undefined stays undefined). */
  convert(obj: ApiObject | undefined, kind: GroupVersionKind): Promise<ApiObject | undefined>;
}

const same = (a: GroupVersionResource, b: GroupVersionResource): boolean =>
  a.group === b.group && a.version === b.version && a.resource === b.resource;

/** The mapper over resource definitions and the conversions between their versions. */
export function equivalentResourceMapper(
  defs: readonly ResourceDefinition[],
  conversions: Conversions
): EquivalentResourceMapper {
  const byPath = new Map(defs.map((d) => [`${d.group}/${d.version}/${d.resource}`, d]));
  const lookup = (r: GroupVersionResource): ResourceDefinition | undefined =>
    byPath.get(`${r.group}/${r.version}/${r.resource}`);
  const servesSub = (d: ResourceDefinition, sub: string): boolean =>
    sub === '' || (d.subresources ?? []).includes(sub);
  return {
    equivalentResourcesFor(resource, subResource) {
      const def = lookup(resource);
      if (!def) return [];
      const prefix = storagePrefix(def);
      return defs
        .filter(
          (d) =>
            d.kind === def.kind &&
            !same(d, resource) &&
            storagePrefix(d) === prefix &&
            servesSub(d, subResource) &&
            conversions.canConvert(d.kind, def, d) &&
            conversions.canConvert(d.kind, d, def)
        )
        .map((d) => ({ group: d.group, version: d.version, resource: d.resource }));
    },
    kindFor(resource, requestKind) {
      const def = lookup(resource);
      if (
        !def ||
        def.kind !== requestKind.kind ||
        !conversions.canConvert(def.kind, requestKind, def)
      ) {
        return requestKind;
      }
      return { group: def.group, version: def.version, kind: def.kind };
    },
    convert(obj, kind) {
      if (obj === undefined) return Promise.resolve(undefined);
      const to = { group: kind.group, version: kind.version };
      return Promise.resolve(conversions.convert(obj, to) as ApiObject);
    },
  };
}

/** The mapper of the built-in resources. */
export const builtinEquivalentResources: EquivalentResourceMapper = equivalentResourceMapper(
  builtinResources,
  builtinConversions
);

/** The resource and kind a webhook or policy matched a request as (upstream WebhookInvocation). */
export interface MatchedResource {
  readonly resource: GroupVersionResource;
  readonly kind: GroupVersionKind;
}

/**
 * The request as a webhook or policy that matched it as `matched` sees it: its object and old
 * object converted to the matched kind's version (the request's own kind and resource stay,
 * they are AdmissionReview's requestKind and requestResource). The request itself when the
 * match is its own kind.
 */
export async function versionedRequest(
  req: AdmissionRequest,
  matched: MatchedResource,
  mapper: EquivalentResourceMapper = builtinEquivalentResources
): Promise<AdmissionRequest> {
  const k = matched.kind;
  if (k.group === req.kind.group && k.version === req.kind.version && k.kind === req.kind.kind) {
    return req;
  }
  const [object, oldObject] = await Promise.all([
    mapper.convert(req.object, k),
    mapper.convert(req.oldObject, k),
  ]);
  return { ...req, object, oldObject };
}
