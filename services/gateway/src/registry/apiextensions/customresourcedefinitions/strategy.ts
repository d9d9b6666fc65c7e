// CustomResourceDefinitions (k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition
// strategy.go and etcd.go): a create starts with an empty status whose storedVersions holds the
// storage version; a write of the main resource keeps status, and adds a new storage version to
// storedVersions; /status writes only status. The first delete adds the
// customresourcecleanup finalizer and the Terminating condition (upstream REST.Delete), so the
// CRD stays until the finalizer controller has deleted its custom objects.
import { customResourceCleanupFinalizer, setCRDCondition } from '@orch/apimachinery/apiextensions';
import type { CustomResourceDefinitionStatus } from '@orch/apimachinery/apiextensions';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Store } from '../../store.js';
import { StatusRest, statusStrategy } from '../../status-rest.js';
import type { Storage } from '../../rest.js';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionStatusUpdate,
  validateCustomResourceDefinitionUpdate,
} from './validation.js';
import type { SchemaChecks } from './validation.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const statusOf = (o: ApiObject): CustomResourceDefinitionStatus =>
  (isObject(o['status']) ? o['status'] : (o['status'] = {})) as CustomResourceDefinitionStatus;

/** The storage version joins status.storedVersions when it is not there yet. */
function recordStorageVersion(crd: ApiObject): void {
  const spec = isObject(crd['spec']) ? crd['spec'] : {};
  const versions = Array.isArray(spec['versions']) ? spec['versions'] : [];
  const storage = versions.find((v): v is Json => isObject(v) && v['storage'] === true);
  if (!storage || typeof storage['name'] !== 'string') return;
  const status = statusOf(crd);
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(storage['name'])) stored.push(storage['name']);
}

const base = defaultStrategy({ hasStatus: true });

/** The CRD strategy; `checks` are the schema libraries' checks (structural, defaults, CEL rules). */
export function customResourceDefinitionStrategy(checks?: SchemaChecks): Strategy {
  return {
    ...base,
    allowCreateOnUpdate: false,
    nameRule: 'subdomain',
    prepareForCreate(obj) {
      obj['status'] = {};
      recordStorageVersion(obj);
    },
    prepareForUpdate(obj, old) {
      if (old['status'] === undefined) delete obj['status'];
      else obj['status'] = structuredClone(old['status']);
      recordStorageVersion(obj);
    },
    validate: (obj) => validateCustomResourceDefinition(obj, checks),
    validateUpdate: (obj, old) => validateCustomResourceDefinitionUpdate(obj, old, checks),
    // Upstream REST.Delete: the first delete adds the finalizer, whatever the object holds.
    pendingFinalizers(obj) {
      return obj.metadata.deletionTimestamp ? [] : [customResourceCleanupFinalizer];
    },
    prepareForGracefulDelete(obj) {
      const finalizers = (obj.metadata.finalizers ??= []);
      if (!finalizers.includes(customResourceCleanupFinalizer))
        finalizers.push(customResourceCleanupFinalizer);
      setCRDCondition(statusOf(obj), {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionPending',
        message:
          'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      });
    },
  };
}

/** The CRD strategy without the schema libraries' checks (used for /status and tests). */
export const customResourceDefinitionBaseStrategy = customResourceDefinitionStrategy();

/** /status of CRDs (upstream statusStrategy: ValidateUpdateCustomResourceDefinitionStatus). */
export function crdStatusRest(store: Store): Storage {
  return new StatusRest(
    store,
    statusStrategy(store.strategy, (obj) => validateCustomResourceDefinitionStatusUpdate(obj))
  );
}
