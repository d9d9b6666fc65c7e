// PersistentVolumeClaimResize (k8s.io/kubernetes plugin/pkg/admission/storage/persistentvolume/
// resize, admission.go). Validating, on update of a PersistentVolumeClaim: a larger
// `spec.resources.requests.storage` is allowed only for a claim that is Bound and whose
// StorageClass (the same before and after, from the beta annotation
// `volume.beta.orch.io/storage-class` or `spec.storageClassName`) sets
// `allowVolumeExpansion: true`; refusals are upstream's 403s. Shrinking or keeping the size is
// left to the claim's validation.
import { compareQuantities, mustParseQuantity, parseQuantity } from '@orch/apimachinery/quota';
import type { Quantity } from '@orch/apimachinery/quota';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { PersistentVolumeClaim } from '@orch/api/core/v1';
import { admissionForbidden } from '../admission-forbidden.js';
import { betaStorageClassAnnotation } from '../default-storage-class/default-storage-class.js';
import type {
  AdmissionRequest,
  ObjectLister,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'PersistentVolumeClaimResize' satisfies ServicePluginName;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

const isClaims = (req: AdmissionRequest): boolean =>
  req.resource.group === '' &&
  req.resource.resource === 'persistentvolumeclaims' &&
  req.subResource === '';

/** The requested storage; a missing or unparsable size counts as zero (a zero Quantity). */
function requestedStorage(claim: PersistentVolumeClaim): Quantity {
  const spec = obj(claim.spec);
  const size = obj(obj(spec?.['resources'])?.['requests'])?.['storage'];
  const text = typeof size === 'string' || typeof size === 'number' ? String(size) : '';
  return parseQuantity(text) ?? mustParseQuantity('0');
}

/** GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
export function claimClass(claim: ApiObject & PersistentVolumeClaim): string {
  const annotated = claim.metadata.annotations?.[betaStorageClassAnnotation];
  if (annotated !== undefined) return annotated;
  const name = obj(claim.spec)?.['storageClassName'];
  return typeof name === 'string' ? name : '';
}

export function newPersistentVolumeClaimResize(deps: PluginDeps): ServicePlugin {
  let lister: Promise<ObjectLister> | undefined;
  const allowResize = async (claim: ApiObject, old: ApiObject): Promise<boolean> => {
    const cls = claimClass(claim);
    if (cls === '' || claimClass(old) === '' || cls !== claimClass(old)) return false;
    lister ??= deps.listers.forResource('storage.orch.io', 'storageclasses');
    const sc = (await lister).get('', cls);
    return sc?.['allowVolumeExpansion'] === true;
  };
  return {
    name: pluginName,
    handles: (op) => op === 'UPDATE',
    mayValidate: async (req) => isClaims(req),
    async validate(req) {
      if (!isClaims(req) || !req.object || !req.oldObject) return;
      const grows = compareQuantities(
        requestedStorage(req.object),
        requestedStorage(req.oldObject)
      );
      if (grows <= 0) return;
      const old: PersistentVolumeClaim = req.oldObject;
      const phase = obj(old.status)?.['phase'];
      if (phase !== 'Bound') {
        throw admissionForbidden(req, 'Only bound persistent volume claims can be expanded');
      }
      if (!(await allowResize(req.object, req.oldObject))) {
        throw admissionForbidden(
          req,
          'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize'
        );
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newPersistentVolumeClaimResize);
}
