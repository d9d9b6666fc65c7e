// StorageObjectInUseProtection (k8s.io/kubernetes plugin/pkg/admission/storage/
// storageobjectinuseprotection, admission.go). Mutating, on create: every new
// PersistentVolumeClaim gets the finalizer `orch.io/pvc-protection` and every new
// PersistentVolume `orch.io/pv-protection` (upstream's `kubernetes.io/pvc-protection` and
// `kubernetes.io/pv-protection`), unless it has it already, so that a claim a pod uses and a
// volume bound to a claim are not removed under them: upstream's PVC and PV protection
// controllers take the finalizer off once nothing uses the object.
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'StorageObjectInUseProtection' satisfies ServicePluginName;

export const pvcProtectionFinalizer = 'orch.io/pvc-protection';
export const pvProtectionFinalizer = 'orch.io/pv-protection';

export function newStorageObjectInUseProtection(_deps: PluginDeps): ServicePlugin {
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE',
    mayValidate: async () => false,
    async admit(req) {
      if (req.resource.group !== '' || req.subResource !== '' || !req.object) return;
      const finalizer =
        req.resource.resource === 'persistentvolumeclaims'
          ? pvcProtectionFinalizer
          : req.resource.resource === 'persistentvolumes'
            ? pvProtectionFinalizer
            : undefined;
      if (!finalizer) return;
      const finalizers = req.object.metadata.finalizers ?? [];
      if (finalizers.includes(finalizer)) return;
      const o = structuredClone(req.object) as ApiObject;
      o.metadata.finalizers = [...finalizers, finalizer];
      req.object = o;
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newStorageObjectInUseProtection);
}
