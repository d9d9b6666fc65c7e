// The equivalent resources of everything the cluster serves: the built-in ones
// (equivalent-resources.ts) and the served versions of each custom resource, as upstream's CRD
// handler registers every served version of a CRD, with its status and scale subresources, in
// the EquivalentResourceRegistry (apiextensions-apiserver pkg/apiserver/customresource_handler.go).
// A custom resource is converted by its CRD's strategy: `None` changes apiVersion, `Webhook`
// asks the CRD's conversion webhook (@orch/apimachinery apiextensions/conversion, the converter
// the gateway's store uses). The CRDs are read through an informer started on the first request
// for a resource no built-in serves (`prepare`), so a service that never sees one never watches
// them.
import {
  apiextensionsGroup,
  conversionWebhookTimeoutMs,
  nopConverter,
  WebhookConverter,
} from '@orch/apimachinery/apiextensions';
import type {
  CustomResourceConverter,
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
} from '@orch/apimachinery/apiextensions';
import type { ApiObject } from '@orch/apimachinery/meta';
import { builtinResources } from '@orch/apimachinery/registry';
import type { GroupVersionKind, GroupVersionResource } from '@orch/apimachinery/schema';
import { formatApiVersion } from '@orch/apimachinery/schema';

import type { Listers, ObjectLister } from '../interfaces.js';

import { builtinEquivalentResources } from './equivalent-resources.js';
import type { EquivalentResourceMapper } from './equivalent-resources.js';

const builtinPaths = new Set(builtinResources.map((d) => `${d.group}/${d.resource}`));
const isBuiltin = (r: Pick<GroupVersionResource, 'group' | 'resource'>): boolean =>
  builtinPaths.has(`${r.group}/${r.resource}`);

const servesSub = (v: CustomResourceDefinitionVersion, sub: string): boolean =>
  sub === '' ||
  (sub === 'status' && v.subresources?.status != null) ||
  (sub === 'scale' && v.subresources?.scale != null);

/** The built-in and custom resources' equivalents; `prepare` before matching a request. */
export class ServedEquivalentResources implements EquivalentResourceMapper {
  readonly #listers: Listers;
  readonly #serviceAddresses: Readonly<Record<string, string>>;
  #crds: Promise<ObjectLister> | undefined;
  #crdLister: ObjectLister | undefined;
  /** One webhook converter per CRD, replaced when the CRD's spec changes. */
  readonly #converters = new Map<string, { spec: string; converter: WebhookConverter }>();

  /**
   * `serviceAddresses` maps a conversion webhook's `clientConfig.service` to the address
   * dialled, as the admission webhooks' configuration does.
   */
  constructor(listers: Listers, serviceAddresses: Readonly<Record<string, string>> = {}) {
    this.#listers = listers;
    this.#serviceAddresses = serviceAddresses;
  }

  /** Makes the CRDs known (synced) when `resource` is not a built-in one. */
  async prepare(resource: Pick<GroupVersionResource, 'group' | 'resource'>): Promise<void> {
    if (isBuiltin(resource) || this.#crdLister) return;
    this.#crds ??= this.#listers.forResource(apiextensionsGroup, 'customresourcedefinitions');
    try {
      this.#crdLister = await this.#crds;
    } catch (err) {
      this.#crds = undefined;
      throw err;
    }
  }

  equivalentResourcesFor(
    resource: GroupVersionResource,
    subResource: string
  ): readonly GroupVersionResource[] {
    if (isBuiltin(resource)) {
      return builtinEquivalentResources.equivalentResourcesFor(resource, subResource);
    }
    const crd = this.#crd(resource.group, resource.resource);
    if (!crd) return [];
    const served = crd.spec.versions.filter((v) => v.served);
    if (!served.some((v) => v.name === resource.version)) return [];
    return served
      .filter((v) => v.name !== resource.version && servesSub(v, subResource))
      .map((v) => ({ group: resource.group, version: v.name, resource: resource.resource }));
  }

  kindFor(resource: GroupVersionResource, requestKind: GroupVersionKind): GroupVersionKind {
    if (isBuiltin(resource)) return builtinEquivalentResources.kindFor(resource, requestKind);
    const crd = this.#crd(resource.group, resource.resource);
    if (!crd || requestKind.group !== resource.group || requestKind.kind !== crd.spec.names.kind) {
      return requestKind;
    }
    return { group: resource.group, version: resource.version, kind: requestKind.kind };
  }

  async convert(
    obj: ApiObject | undefined,
    kind: GroupVersionKind
  ): Promise<ApiObject | undefined> {
    if (obj === undefined) return undefined;
    const crd = this.#crdOfKind(kind);
    if (!crd) return builtinEquivalentResources.convert(obj, kind);
    const [out] = await this.#converter(crd)([obj], formatApiVersion(kind));
    return out as ApiObject;
  }

  #crd(group: string, plural: string): CustomResourceDefinition | undefined {
    return this.#crdLister?.get('', `${plural}.${group}`) as CustomResourceDefinition | undefined;
  }

  #crdOfKind(kind: GroupVersionKind): CustomResourceDefinition | undefined {
    if (!this.#crdLister) return undefined;
    return (this.#crdLister.list() as unknown[] as CustomResourceDefinition[]).find(
      (c) => c.spec.group === kind.group && c.spec.names.kind === kind.kind
    );
  }

  #converter(crd: CustomResourceDefinition): CustomResourceConverter {
    if ((crd.spec.conversion?.strategy ?? 'None') !== 'Webhook') return nopConverter;
    const name = crd.metadata.name ?? '';
    const spec = JSON.stringify(crd.spec);
    let entry = this.#converters.get(name);
    if (entry?.spec !== spec) {
      // A call still in flight on the old converter keeps its client until it ends.
      const old = entry?.converter;
      if (old) setTimeout(() => old.close(), conversionWebhookTimeoutMs).unref();
      entry = {
        spec,
        converter: new WebhookConverter(crd, { serviceAddresses: this.#serviceAddresses }),
      };
      this.#converters.set(name, entry);
    }
    const { converter } = entry;
    return (objs, apiVersion) => converter.convert(objs, apiVersion);
  }
}
