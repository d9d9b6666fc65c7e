// The PV protection controller (k8s pkg/controller/volume/pvprotection): a PersistentVolume being
// deleted keeps its `orch.io/pv-protection` finalizer while its status says Bound, and loses it
// once the volume is no longer bound, so the delete completes; a volume without the finalizer
// gets it.
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';
import {
  ProtectionController,
  isDeletionCandidate,
  metaOf,
  needToAddFinalizer,
} from './protection-controller.js';

export const pvProtectionFinalizer = 'orch.io/pv-protection';

type Json = Record<string, unknown>;

/** isBeingUsed: the volume's status says it is bound to a claim. */
export const pvIsBeingUsed = (pv: Json): boolean =>
  (pv['status'] as { phase?: string } | undefined)?.phase === 'Bound';

export class PVProtectionController extends ProtectionController {
  readonly #volumes: SharedInformer;

  constructor(client: RestClient, log: Logger) {
    super(client, log.child({ controller: 'pv-protection' }));
    this.#volumes = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/persistentvolumes'),
      name: 'persistentvolumes',
      log: this.log,
    });
    const pv = (o: Json): void => {
      if (
        isDeletionCandidate(o, pvProtectionFinalizer) ||
        needToAddFinalizer(o, pvProtectionFinalizer)
      )
        this.enqueue(metaOf(o).name);
    };
    this.#volumes.addEventHandler({ onAdd: pv, onUpdate: (_old, o) => pv(o) });
  }

  protected get synced(): boolean {
    return this.#volumes.synced;
  }

  async run(): Promise<void> {
    const stopped = new Promise<void>((resolve) =>
      this.abort.signal.addEventListener('abort', () => resolve(), { once: true })
    );
    await this.#volumes.start();
    void this.work();
    await stopped;
  }

  stop(): void {
    this.#volumes.stop();
    this.abort.abort();
  }

  /** processPV. */
  protected async process(name: string): Promise<void> {
    const pv = this.#volumes.get(name);
    if (!pv) return;
    const path = `/api/v1/persistentvolumes/${name}`;
    if (isDeletionCandidate(pv, pvProtectionFinalizer)) {
      if (!pvIsBeingUsed(pv)) await this.setFinalizer(path, pv, pvProtectionFinalizer, false);
      return;
    }
    if (needToAddFinalizer(pv, pvProtectionFinalizer)) {
      await this.setFinalizer(path, pv, pvProtectionFinalizer, true);
    }
  }
}
