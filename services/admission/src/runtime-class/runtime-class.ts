// RuntimeClass (k8s.io/kubernetes plugin/pkg/admission/runtimeclass, admission.go), for new pods
// naming a `spec.runtimeClassName`. Mutating: the class's `overhead.podFixed` becomes the pod's
// `spec.overhead` (a pod that set a different overhead is refused), its
// `scheduling.nodeSelector` is merged into the pod's (a key the pod sets to another value is
// refused) and its `scheduling.tolerations` into the pod's (upstream's MergeTolerations, which
// drops a toleration another one covers). Validating: a pod with an overhead must name a class
// whose overhead is the same. A class the informer does not hold yet is read from storage (the
// live lookup upstream makes); one that does not exist refuses the pod.
import { isNotFound } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Pod } from '@orch/api/core/v1';
import { compareQuantities, parseQuantity } from '@orch/apimachinery/quota';
import { admissionForbidden } from '../admission-forbidden.js';
import type {
  AdmissionRequest,
  ObjectLister,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';
import { resourcePrefix } from '../listers.js';
import { mergeTolerations } from '../pod-toleration-restriction/pod-toleration-restriction.js';
import type { Toleration } from '../pod-toleration-restriction/pod-toleration-restriction.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'RuntimeClass' satisfies ServicePluginName;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

const isPods = (req: AdmissionRequest): boolean =>
  req.resource.group === '' && req.resource.resource === 'pods' && req.subResource === '';

/** apiequality.Semantic.DeepEqual of two resource lists: the same names, equal quantities. */
export function sameResourceList(a: Obj, b: Obj): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    if (!(k in b)) return false;
    const x = parseQuantity(String(a[k]));
    const y = parseQuantity(String(b[k]));
    return x && y ? compareQuantities(x, y) === 0 : a[k] === b[k];
  });
}

const mismatch = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

export function newRuntimeClass(deps: PluginDeps): ServicePlugin {
  let lister: Promise<ObjectLister> | undefined;

  /** prepareObjects: the pod's class, from the informer or else storage; undefined for none. */
  async function runtimeClassOf(req: AdmissionRequest, spec: Obj): Promise<ApiObject | undefined> {
    const name = spec['runtimeClassName'];
    if (typeof name !== 'string') return undefined;
    lister ??= deps.listers.forResource('node.orch.io', 'runtimeclasses');
    const cached = (await lister).get('', name);
    if (cached) return cached;
    if (deps.storage) {
      try {
        const key = `${resourcePrefix('node.orch.io', 'runtimeclasses')}${name}`;
        // The storage answers the decoded JSON of the stored object, which has its metadata.
        return (await deps.storage.get(key, 'MOST_RECENT')) as ApiObject;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    throw admissionForbidden(req, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
  }

  return {
    name: pluginName,
    handles: (op) => op === 'CREATE',
    mayValidate: async (req) => isPods(req),
    async admit(req) {
      if (!isPods(req) || !req.object) return;
      const pod = structuredClone(req.object) as ApiObject & { spec?: Obj };
      const spec: Obj = (pod.spec ??= {});
      const rc = await runtimeClassOf(req, spec);
      if (!rc) return;
      // setOverhead
      const podFixed = obj(obj(rc['overhead'])?.['podFixed']);
      if (podFixed) {
        const overhead = obj(spec['overhead']);
        if (overhead && Object.keys(overhead).length > 0 && !sameResourceList(podFixed, overhead)) {
          throw admissionForbidden(req, mismatch);
        }
        spec['overhead'] = structuredClone(podFixed);
      }
      // setScheduling
      const scheduling = obj(rc['scheduling']);
      if (scheduling) {
        const runtimeSelector = (obj(scheduling['nodeSelector']) ?? {}) as Record<string, string>;
        const podSelector = obj(spec['nodeSelector']) as Record<string, string> | undefined;
        if (!podSelector) {
          if (scheduling['nodeSelector'] !== undefined) {
            spec['nodeSelector'] = structuredClone(runtimeSelector);
          }
        } else {
          for (const [key, value] of Object.entries(runtimeSelector)) {
            const podValue = podSelector[key];
            if (podValue !== undefined && podValue !== value) {
              throw admissionForbidden(
                req,
                `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`
              );
            }
            podSelector[key] = value;
          }
        }
        const podTolerations = (
          Array.isArray(spec['tolerations']) ? spec['tolerations'] : []
        ) as Toleration[];
        const rcTolerations = (
          Array.isArray(scheduling['tolerations']) ? scheduling['tolerations'] : []
        ) as Toleration[];
        const merged = mergeTolerations(podTolerations, rcTolerations);
        if (merged.length > 0 || spec['tolerations'] !== undefined) spec['tolerations'] = merged;
      }
      req.object = pod;
    },
    async validate(req) {
      if (!isPods(req) || !req.object) return;
      const pod: Pod = req.object;
      const spec = obj(pod.spec) ?? {};
      const rc = await runtimeClassOf(req, spec);
      // validateOverhead
      const overhead = obj(spec['overhead']);
      if (!overhead || Object.keys(overhead).length === 0) return;
      const podFixed = obj(obj(rc?.['overhead'])?.['podFixed']);
      if (!podFixed) {
        throw admissionForbidden(
          req,
          'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'
        );
      }
      if (!sameResourceList(podFixed, overhead)) throw admissionForbidden(req, mismatch);
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newRuntimeClass);
}
