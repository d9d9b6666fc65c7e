// The resource definitions a CustomResourceDefinition serves: one per served version, once the
// CRD is Established (upstream pkg/apiserver/customresource_handler.go getOrCreateServingInfoFor
// and customresource_discovery_controller.go: names from status.acceptedNames, the version's
// subresources and selectable fields, the storage version).
import { isCRDConditionTrue } from '@orch/apimachinery/apiextensions';
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';
import { allVerbs } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';

/** Whether a CRD's resources are served: Established (upstream serves only then). */
export function isServed(crd: CustomResourceDefinition): boolean {
  return isCRDConditionTrue(crd.status, 'Established');
}

/** Whether the CRD is being deleted (Terminating): creates are refused, the rest still served. */
export function isTerminating(crd: CustomResourceDefinition): boolean {
  return isCRDConditionTrue(crd.status, 'Terminating');
}

/** The version objects are stored at (`storage: true`). */
export function storageVersionOf(crd: CustomResourceDefinition): string | undefined {
  return crd.spec.versions.find((v) => v.storage)?.name;
}

/** One def per served version of an Established CRD; none otherwise. */
export function customResourceDefinitions(crd: CustomResourceDefinition): ResourceDefinition[] {
  if (!isServed(crd)) return [];
  // Served under the names the naming controller accepted (upstream: status.acceptedNames).
  const accepted = crd.status?.acceptedNames;
  const names = accepted?.plural && accepted.kind ? accepted : crd.spec.names;
  const storageVersion = storageVersionOf(crd);
  return crd.spec.versions
    .filter((v) => v.served)
    .map((version): ResourceDefinition => {
      const subresources: string[] = [];
      if (version.subresources?.status) subresources.push('status');
      if (version.subresources?.scale) subresources.push('scale');
      const selectable = (version.selectableFields ?? []).map((f) => f.jsonPath.replace(/^\./, ''));
      return {
        group: crd.spec.group,
        version: version.name,
        resource: names.plural,
        kind: names.kind,
        listKind: names.listKind || `${names.kind}List`,
        singular: names.singular || names.kind.toLowerCase(),
        namespaced: crd.spec.scope === 'Namespaced',
        verbs: allVerbs,
        ...(names.shortNames?.length ? { shortNames: [...names.shortNames] } : {}),
        ...(names.categories?.length ? { categories: [...names.categories] } : {}),
        ...(subresources.length ? { subresources } : {}),
        ...(selectable.length ? { selectableFields: selectable } : {}),
        ...(storageVersion && storageVersion !== version.name ? { storageVersion } : {}),
        customResource: { crd, version },
      };
    });
}

/**
 * The warning of a request to a deprecated version (upstream crdHandler): the version's
 * deprecationWarning, or `<group>/<version> <Kind> is deprecated`; undefined when not deprecated.
 */
export function customResourceDeprecationWarning(def: ResourceDefinition): string | undefined {
  const v = def.customResource?.version;
  if (!v?.deprecated) return undefined;
  return v.deprecationWarning ?? `${def.group}/${def.version} ${def.kind} is deprecated`;
}
