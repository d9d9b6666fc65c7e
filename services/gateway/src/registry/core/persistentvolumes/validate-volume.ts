// The shared parts of PersistentVolume and PersistentVolumeClaim validation (k8s
// pkg/apis/core/validation ValidatePersistentVolumeSpec / ValidatePersistentVolumeClaimSpec):
// access modes, volume modes, storage class names, the volume source.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isDNS1123Subdomain } from '@orch/apimachinery/meta';
import { isObject, list, obj, str } from '../../unstructured.js';
import type { Json } from '../../unstructured.js';

export const supportedAccessModes = [
  'ReadOnlyMany',
  'ReadWriteMany',
  'ReadWriteOnce',
  'ReadWriteOncePod',
] as const;

/** The access modes of a PV or PVC spec; `required` is the message when there are none. */
export function validateAccessModes(
  modes: unknown,
  path: FieldPath,
  required: string
): FieldError[] {
  const all = list(modes);
  if (all.length === 0) return [fieldRequired(path, required)];
  const errs: FieldError[] = [];
  for (const m of all)
    if (!supportedAccessModes.includes(m as never))
      errs.push(fieldNotSupported(path, m, supportedAccessModes));
  if (all.includes('ReadWriteOncePod') && all.length > 1)
    errs.push(fieldForbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

export function validateVolumeMode(mode: unknown, path: FieldPath): FieldError[] {
  if (mode === undefined) return [];
  return ['Block', 'Filesystem'].includes(str(mode))
    ? []
    : [fieldNotSupported(path, mode, ['Block', 'Filesystem'])];
}

export function validateStorageClassName(name: unknown, path: FieldPath): FieldError[] {
  if (typeof name !== 'string' || name === '') return [];
  return isDNS1123Subdomain(name).map((m) => fieldInvalid(path, name, m));
}

/** The volume sources a PersistentVolume may name (PersistentVolumeSource's JSON fields). */
export const persistentVolumeSources = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'hostPath',
  'glusterfs',
  'nfs',
  'rbd',
  'iscsi',
  'cinder',
  'cephfs',
  'fc',
  'flocker',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const;

/** Exactly one volume source, and what each of the common ones requires. */
export function validatePersistentVolumeSource(spec: Json, path: FieldPath): FieldError[] {
  const present = persistentVolumeSources.filter((s) => isObject(spec[s]));
  if (present.length === 0) return [fieldRequired(path, 'must specify a volume type')];
  const errs: FieldError[] = present
    .slice(1)
    .map((s) => fieldForbidden(path.child(s), 'may not specify more than 1 volume type'));
  const source = present[0]!;
  const s = obj(spec[source]);
  const p = path.child(source);
  const need = (...fields: string[]): void => {
    for (const f of fields) if (!str(s[f])) errs.push(fieldRequired(p.child(f), ''));
  };
  switch (source) {
    case 'hostPath':
    case 'local':
      need('path');
      break;
    case 'nfs':
      need('server', 'path');
      if (str(s['path']) && !str(s['path']).startsWith('/'))
        errs.push(fieldInvalid(p.child('path'), s['path'], 'must be an absolute path'));
      break;
    case 'csi':
      need('driver', 'volumeHandle');
      break;
    case 'iscsi':
      need('targetPortal', 'iqn');
      break;
    case 'rbd':
      need('image');
      if (list(s['monitors']).length === 0) errs.push(fieldRequired(p.child('monitors'), ''));
      break;
    default:
  }
  if (source === 'local' && !isObject(spec['nodeAffinity']))
    errs.push(fieldRequired(path.child('nodeAffinity'), 'Local volume requires node affinity'));
  return errs;
}
