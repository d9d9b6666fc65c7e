// DefaultStorageClass (k8s.io/kubernetes plugin/pkg/admission/storage/storageclass/setdefault,
// admission.go; pkg/volume/util GetDefaultClass). Mutating, for new PersistentVolumeClaims: a
// claim that asks for no class (no `spec.storageClassName`, not even "", and no beta annotation
// `volume.beta.orch.io/storage-class`) gets the default StorageClass, the one annotated
// `storageclass.orch.io/is-default-class: "true"` (or the beta `storageclass.beta.orch.io/...`).
// When several are, the create is refused (403, `<n> default StorageClasses were found`), as the
// spec says and upstream did until 1.25 (1.26 chose the newest); when none is, the claim is left
// without a class. A claim that names its class is admitted whatever the defaults.
import type { ApiObject } from '@orch/apimachinery/meta';
import type { PersistentVolumeClaim } from '@orch/api/core/v1';
import { admissionForbidden } from '../admission-forbidden.js';
import type {
  AdmissionRequest,
  ObjectLister,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'DefaultStorageClass' satisfies ServicePluginName;

export const isDefaultStorageClassAnnotation = 'storageclass.orch.io/is-default-class';
export const betaIsDefaultStorageClassAnnotation = 'storageclass.beta.orch.io/is-default-class';
/** The claim's class before `spec.storageClassName` (core BetaStorageClassAnnotation). */
export const betaStorageClassAnnotation = 'volume.beta.orch.io/storage-class';

type Obj = Record<string, unknown>;

const isClaims = (req: AdmissionRequest): boolean =>
  req.resource.group === '' &&
  req.resource.resource === 'persistentvolumeclaims' &&
  req.subResource === '';

/**
 * The one default among `classes` (undefined when none), or the 403 refusing the write when
 * several are: `<resource> "<name>" is forbidden: Internal error occurred: <n> default <kinds>
 * were found<more>` (upstream's NewForbidden over the InternalError of GetDefaultClass).
 */
export function theOneDefault(
  req: AdmissionRequest,
  defaults: readonly ApiObject[],
  kinds: string,
  more = ''
): ApiObject | undefined {
  if (defaults.length > 1) {
    throw admissionForbidden(
      req,
      `Internal error occurred: ${defaults.length} default ${kinds} were found${more}`
    );
  }
  return defaults[0];
}

/** IsDefaultAnnotation. */
export const isDefaultStorageClass = (sc: ApiObject): boolean =>
  sc.metadata.annotations?.[isDefaultStorageClassAnnotation] === 'true' ||
  sc.metadata.annotations?.[betaIsDefaultStorageClassAnnotation] === 'true';

/** GetDefaultClass: the one default class, undefined when none; several refuse the write. */
export const defaultStorageClass = (
  req: AdmissionRequest,
  classes: readonly ApiObject[]
): ApiObject | undefined =>
  theOneDefault(req, classes.filter(isDefaultStorageClass), 'StorageClasses');

/** PersistentVolumeClaimHasClass: the claim chose a class, possibly "" (none). */
export function claimHasClass(claim: ApiObject & PersistentVolumeClaim): boolean {
  const spec = claim.spec;
  if (spec?.storageClassName !== undefined && spec.storageClassName !== null) return true;
  return claim.metadata.annotations?.[betaStorageClassAnnotation] !== undefined;
}

export function newDefaultStorageClass(deps: PluginDeps): ServicePlugin {
  let lister: Promise<ObjectLister> | undefined;
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE',
    mayValidate: async () => false,
    async admit(req) {
      if (!isClaims(req) || !req.object || claimHasClass(req.object)) return;
      lister ??= deps.listers.forResource('storage.orch.io', 'storageclasses');
      const def = defaultStorageClass(req, (await lister).list());
      if (!def) return;
      const claim = structuredClone(req.object) as ApiObject & { spec?: Obj };
      (claim.spec ??= {})['storageClassName'] = def.metadata.name;
      req.object = claim;
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newDefaultStorageClass);
}
