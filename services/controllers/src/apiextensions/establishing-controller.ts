// The establishing controller (k8s.io/apiextensions-apiserver pkg/controller/establish
// EstablishingController): a CRD whose names are accepted becomes Established
// (InitialNamesAccepted). Upstream waits five seconds with several API servers so that each
// serves the resource first; here the wait is `delayMs` (default 0, the gateways serve a CRD
// from their own watch of it).
import { isCRDConditionTrue, setCRDCondition } from '@orch/apimachinery/apiextensions';
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import type { Logger } from '@orch/component-base/logs';
import { CrdController, statusPath } from './crd-controller-base.js';
import type { SyncResult } from './crd-controller-base.js';

const pending = (crd: CustomResourceDefinition): boolean =>
  isCRDConditionTrue(crd.status, 'NamesAccepted') && !isCRDConditionTrue(crd.status, 'Established');

export class EstablishingController extends CrdController {
  readonly #delayMs: number;

  constructor(client: RestClient, log: Logger, opts: { delayMs?: number } = {}) {
    super(client, log, 'crd-establishing');
    this.#delayMs = opts.delayMs ?? 0;
    const queue = (o: Record<string, unknown>): void => {
      const crd = o as CustomResourceDefinition; // the decoded JSON of a stored CRD
      if (!pending(crd)) return;
      if (this.#delayMs > 0) setTimeout(() => this.enqueue(crd.metadata.name), this.#delayMs);
      else this.enqueue(crd.metadata.name);
    };
    this.informer.addEventHandler({ onAdd: queue, onUpdate: (_old, o) => queue(o) });
  }

  protected async sync(name: string): Promise<SyncResult> {
    const crd = this.crd(name);
    if (!crd || !pending(crd)) return 'done';
    const next = structuredClone(crd);
    setCRDCondition((next.status ??= {}), {
      type: 'Established',
      status: 'True',
      reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted',
    });
    try {
      await this.client.request('PUT', statusPath(name), next);
    } catch (err) {
      if (isNotFound(err)) return 'done';
      // Changed meanwhile: the informer's next copy is queued again if still pending.
      if (isConflict(err)) return 'done';
      throw err;
    }
    this.log.info('established', { name });
    return 'done';
  }
}
