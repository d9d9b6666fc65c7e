// The computed defaults of CustomResourceDefinition (SetDefaults_CustomResourceDefinition and
// SetDefaults_CustomResourceDefinitionSpec of k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/v1/defaults.go): singular from kind, listKind from kind, storedVersions
// from the storage version. The constant ones (conversion None, service port 443) are
// default_value options in proto/orch/api/apiextensions/v1.
import type { Defaulter } from '../types.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** SetDefaults_CustomResourceDefinition and its spec part. */
const customResourceDefinition: Defaulter = (crd) => {
  const spec = isObject(crd['spec']) ? crd['spec'] : undefined;
  if (!spec) return;
  const names = isObject(spec['names']) ? spec['names'] : undefined;
  const kind = names && typeof names['kind'] === 'string' ? names['kind'] : '';
  if (names) {
    if (typeof names['singular'] !== 'string' || names['singular'] === '')
      names['singular'] = kind.toLowerCase();
    if ((typeof names['listKind'] !== 'string' || names['listKind'] === '') && kind !== '')
      names['listKind'] = `${kind}List`;
  }
  const status = isObject(crd['status']) ? crd['status'] : undefined;
  const stored = status?.['storedVersions'];
  if (Array.isArray(stored) && stored.length > 0) return;
  const versions = Array.isArray(spec['versions']) ? spec['versions'] : [];
  const storage = versions.find((v): v is Json => isObject(v) && v['storage'] === true);
  if (!storage || typeof storage['name'] !== 'string') return;
  const st = status ?? (crd['status'] = {});
  (st as Json)['storedVersions'] = [storage['name']];
};

export const apiextensionsDefaulters: readonly (readonly [string, Defaulter])[] = [
  ['orch.api.apiextensions.v1.CustomResourceDefinition', customResourceDefinition],
];
