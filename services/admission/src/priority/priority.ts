// Priority (k8s.io/kubernetes plugin/pkg/admission/priority, admission.go). Mutating, for new
// pods: `spec.priorityClassName` is resolved through the PriorityClasses (the two system classes
// among them, created by every gateway) to `spec.priority` and `spec.preemptionPolicy`; a pod
// naming no class gets the global default class (the one with the lowest value when a race left
// several), else priority 0 and PreemptLowerPriority. A class that does not exist, or a priority
// or preemption policy the pod sets that differs from its class's, is refused with upstream's
// words. An update keeps the priority and policy the stored pod has when the new one leaves them
// out. Validating, for PriorityClasses: a second global default is refused. Upstream's rule that
// the system classes serve only pods of the system namespace was dropped in 1.17 (critical pods
// may run in any namespace; a ResourceQuota `limitedResources` entry with a PriorityClass scope
// confines them), so none is made here either.
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Pod } from '@orch/api/core/v1';
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
export const pluginName = 'Priority' satisfies ServicePluginName;

/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
export const defaultPriorityWhenNoDefaultClassExists = 0;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

const isPods = (req: AdmissionRequest): boolean =>
  req.resource.group === '' && req.resource.resource === 'pods' && req.subResource === '';
const isPriorityClasses = (req: AdmissionRequest): boolean =>
  req.resource.group === 'scheduling.orch.io' &&
  req.resource.resource === 'priorityclasses' &&
  req.subResource === '';

/** The global default class (upstream's getDefaultPriorityClass: the lowest value wins a tie). */
export function defaultPriorityClass(classes: readonly ApiObject[]): ApiObject | undefined {
  let found: ApiObject | undefined;
  for (const pc of classes) {
    if (pc['globalDefault'] !== true) continue;
    if (!found || Number(found['value']) > Number(pc['value'])) found = pc;
  }
  return found;
}

export function newPriority(deps: PluginDeps): ServicePlugin {
  let lister: Promise<ObjectLister> | undefined;
  const classes = (): Promise<ObjectLister> =>
    (lister ??= deps.listers.forResource('scheduling.orch.io', 'priorityclasses'));

  async function admitCreate(req: AdmissionRequest, pod: ApiObject & { spec?: Obj }) {
    const spec: Obj = (pod.spec ??= {});
    const l = await classes();
    let priority: number;
    let preemptionPolicy: string | undefined;
    const className =
      typeof spec['priorityClassName'] === 'string' ? spec['priorityClassName'] : '';
    if (className === '') {
      const dpc = defaultPriorityClass(l.list());
      if (dpc) {
        spec['priorityClassName'] = dpc.metadata.name;
        priority = Number(dpc['value']);
        preemptionPolicy = dpc['preemptionPolicy'] as string | undefined;
      } else {
        priority = defaultPriorityWhenNoDefaultClassExists;
        preemptionPolicy = 'PreemptLowerPriority';
      }
    } else {
      const pc = l.get('', className);
      if (!pc) throw admissionForbidden(req, `no PriorityClass with name ${className} was found`);
      priority = Number(pc['value']);
      preemptionPolicy = pc['preemptionPolicy'] as string | undefined;
    }
    if (
      spec['priority'] !== undefined &&
      spec['priority'] !== null &&
      spec['priority'] !== priority
    ) {
      throw admissionForbidden(
        req,
        `the integer value of priority (${String(spec['priority'])}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`
      );
    }
    spec['priority'] = priority;
    if (preemptionPolicy !== undefined) {
      const given = spec['preemptionPolicy'];
      if (given !== undefined && given !== null && given !== preemptionPolicy) {
        throw admissionForbidden(
          req,
          `the string value of PreemptionPolicy (${String(given)}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`
        );
      }
      spec['preemptionPolicy'] = preemptionPolicy;
    }
  }

  return {
    name: pluginName,
    // upstream's handler also takes DELETE, on which it does nothing
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    mayValidate: async (req) => isPriorityClasses(req),
    async admit(req) {
      if (!isPods(req) || !req.object) return;
      if (req.operation === 'CREATE') {
        const pod = structuredClone(req.object) as ApiObject & { spec?: Obj };
        await admitCreate(req, pod);
        req.object = pod;
        return;
      }
      if (req.operation !== 'UPDATE') return;
      // The priority set on create stays (validation refuses any change of it).
      const current: Pod = req.object;
      const old: Pod | undefined = req.oldObject;
      const spec = obj(current.spec);
      const oldSpec = obj(old?.spec);
      if (!spec || !oldSpec) return;
      const keep = (['priority', 'preemptionPolicy'] as const).filter(
        (f) => (spec[f] === undefined || spec[f] === null) && oldSpec[f] !== undefined
      );
      if (keep.length === 0) return;
      const pod = structuredClone(req.object) as ApiObject & { spec: Obj };
      for (const f of keep) pod.spec[f] = oldSpec[f];
      req.object = pod;
    },
    async validate(req) {
      if (!isPriorityClasses(req) || !req.object) return;
      if (req.operation !== 'CREATE' && req.operation !== 'UPDATE') return;
      const pc = req.object;
      if (pc['globalDefault'] !== true) return;
      const dpc = defaultPriorityClass((await classes()).list());
      if (!dpc) return;
      if (req.operation === 'CREATE' || dpc.metadata.name !== pc.metadata.name) {
        throw admissionForbidden(
          req,
          `PriorityClass ${String(dpc.metadata.name)} is already marked as default. Only one default can exist`
        );
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newPriority);
}
