// The PVC protection controller (k8s pkg/controller/volume/pvcprotection): a
// PersistentVolumeClaim being deleted keeps its `orch.io/pvc-protection` finalizer while a
// scheduled pod (one with `spec.nodeName`) uses it, through a `persistentVolumeClaim` volume or,
// while the pod runs, a generic ephemeral volume it owns; once none does (checked against the
// informer, then against a live list of the namespace's pods), the finalizer is removed and the
// delete completes. A claim without the finalizer gets it. A pod that changes or goes away
// queues the claims it names.
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';
import {
  ProtectionController,
  isDeletionCandidate,
  metaOf,
  needToAddFinalizer,
} from './protection-controller.js';

export const pvcProtectionFinalizer = 'orch.io/pvc-protection';

type Json = Record<string, unknown>;
interface Volume {
  name?: string;
  persistentVolumeClaim?: { claimName?: string };
  ephemeral?: unknown;
}
const specOf = (o: Json): { nodeName?: string; volumes?: Volume[] } =>
  (o['spec'] ?? {}) as { nodeName?: string; volumes?: Volume[] };

/** The claims a pod's volumes name (generic ephemeral ones as `<pod>-<volume>`). */
function claimsOf(pod: Json): string[] {
  return (specOf(pod).volumes ?? []).flatMap((v) =>
    v.persistentVolumeClaim?.claimName
      ? [v.persistentVolumeClaim.claimName]
      : v.ephemeral
        ? [`${metaOf(pod).name}-${v.name ?? ''}`]
        : []
  );
}

const podIsShutDown = (pod: Json): boolean => {
  const phase = (pod['status'] as { phase?: string } | undefined)?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
};

/** podUsesPVC: only scheduled pods count (the kubelet starts nothing on a deleted claim). */
export function podUsesPVC(pod: Json, pvc: Json): boolean {
  if (!specOf(pod).nodeName) return false;
  const claim = metaOf(pvc).name;
  const podUid = (pod['metadata'] as { uid?: string } | undefined)?.uid;
  return (specOf(pod).volumes ?? []).some((v) => {
    if (v.persistentVolumeClaim?.claimName === claim) return true;
    if (!v.ephemeral || podIsShutDown(pod) || `${metaOf(pod).name}-${v.name ?? ''}` !== claim)
      return false;
    // VolumeIsForPod: the claim is owned by the pod as its controller
    const owners = (pvc['metadata'] as { ownerReferences?: Json[] } | undefined)?.ownerReferences;
    return (owners ?? []).some((r) => r['controller'] === true && r['uid'] === podUid);
  });
}

export class PVCProtectionController extends ProtectionController {
  readonly #claims: SharedInformer;
  readonly #pods: SharedInformer;

  constructor(client: RestClient, log: Logger) {
    super(client, log.child({ controller: 'pvc-protection' }));
    this.#claims = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/persistentvolumeclaims'),
      name: 'persistentvolumeclaims',
      log: this.log,
    });
    this.#pods = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/pods'),
      name: 'pods',
      log: this.log,
    });
    const claim = (o: Json): void => {
      if (
        isDeletionCandidate(o, pvcProtectionFinalizer) ||
        needToAddFinalizer(o, pvcProtectionFinalizer)
      )
        this.enqueue(`${metaOf(o).namespace ?? ''}/${metaOf(o).name}`);
    };
    this.#claims.addEventHandler({ onAdd: claim, onUpdate: (_old, o) => claim(o) });
    const pod = (o: Json): void => {
      for (const c of claimsOf(o)) this.enqueue(`${metaOf(o).namespace ?? ''}/${c}`);
    };
    this.#pods.addEventHandler({ onUpdate: (_old, o) => pod(o), onDelete: pod });
  }

  protected get synced(): boolean {
    return this.#claims.synced && this.#pods.synced;
  }

  async run(): Promise<void> {
    const stopped = new Promise<void>((resolve) =>
      this.abort.signal.addEventListener('abort', () => resolve(), { once: true })
    );
    await Promise.all([this.#pods.start(), this.#claims.start()]);
    void this.work();
    await stopped;
  }

  stop(): void {
    this.#claims.stop();
    this.#pods.stop();
    this.abort.abort();
  }

  /** processPVC. */
  protected async process(key: string): Promise<void> {
    const pvc = this.#claims.get(key);
    if (!pvc) return;
    const { namespace = '', name } = metaOf(pvc);
    const path = `/api/v1/namespaces/${namespace}/persistentvolumeclaims/${name}`;
    if (isDeletionCandidate(pvc, pvcProtectionFinalizer)) {
      if (!(await this.#isBeingUsed(pvc, namespace))) {
        await this.setFinalizer(path, pvc, pvcProtectionFinalizer, false);
      }
      return;
    }
    if (needToAddFinalizer(pvc, pvcProtectionFinalizer)) {
      await this.setFinalizer(path, pvc, pvcProtectionFinalizer, true);
    }
  }

  /** isBeingUsed: the informer's pods, then (askAPIServer) a live list of the namespace's. */
  async #isBeingUsed(pvc: Json, namespace: string): Promise<boolean> {
    const cached = this.#pods.list().filter((p) => metaOf(p).namespace === namespace);
    if (cached.some((p) => podUsesPVC(p, pvc))) return true;
    const live = await this.client.request('GET', `/api/v1/namespaces/${namespace}/pods`);
    return ((live['items'] as Json[] | undefined) ?? []).some((p) => podUsesPVC(p, pvc));
  }
}
