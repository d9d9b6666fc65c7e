// A pod's quality-of-service class (k8s pkg/apis/core/helper/qos GetPodQOS / ComputePodQOS):
// only cpu and memory count, and only amounts above zero. No request and no limit in any
// container (init containers included): BestEffort. Every container limiting both cpu and
// memory, with the pod's summed requests equal to its summed limits for each resource:
// Guaranteed. Anything else: Burstable.
import { parseQuantity } from '@orch/apimachinery/quota';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const qosResources = new Set(['cpu', 'memory']);

/** The positive cpu and memory amounts of a resource list, added into `into`; the names found. */
function addPositive(list: unknown, into: Map<string, bigint>): Set<string> {
  const found = new Set<string>();
  if (!isObject(list)) return found;
  for (const [name, text] of Object.entries(list)) {
    if (!qosResources.has(name)) continue;
    const q = typeof text === 'string' ? parseQuantity(text) : undefined;
    if (!q || q.nano <= 0n) continue;
    found.add(name);
    into.set(name, (into.get(name) ?? 0n) + q.nano);
  }
  return found;
}

export type PodQOSClass = 'BestEffort' | 'Burstable' | 'Guaranteed';

/** ComputePodQOS of a pod's spec. */
export function computePodQOS(spec: Json): PodQOSClass {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  for (const list of [spec['containers'], spec['initContainers']]) {
    for (const c of Array.isArray(list) ? list : []) {
      const resources = isObject(c) && isObject(c['resources']) ? c['resources'] : {};
      addPositive(resources['requests'], requests);
      const limited = addPositive(resources['limits'], limits);
      if (!limited.has('cpu') || !limited.has('memory')) guaranteed = false;
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
