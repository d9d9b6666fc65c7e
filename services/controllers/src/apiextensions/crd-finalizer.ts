// The CRD finalizer (k8s.io/apiextensions-apiserver pkg/controller/finalizer CRDFinalizer): a
// deleted CRD holding the customresourcecleanup finalizer has its custom objects deleted
// through the API (every namespace, by deletecollection), the Terminating condition telling how
// far it got (InstanceDeletionInProgress, InstanceDeletionFailed, InstanceDeletionCheck,
// InstanceDeletionCompleted); once none is left the finalizer is removed and the gateway
// removes the CRD. A CRD that was never Established served nothing, so has nothing to delete.
import {
  customResourceCleanupFinalizer,
  findCRDCondition,
  isCRDConditionTrue,
  setCRDCondition,
} from '@orch/apimachinery/apiextensions';
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
} from '@orch/apimachinery/apiextensions';
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import type { Logger } from '@orch/component-base/logs';
import { CrdController, crdsPath, statusPath } from './crd-controller-base.js';
import type { SyncResult } from './crd-controller-base.js';

type Json = Record<string, unknown>;

const terminating = (
  reason: string,
  message: string,
  status: 'True' | 'False' = 'True'
): CustomResourceDefinitionCondition => ({ type: 'Terminating', status, reason, message });

/** The version objects are read and deleted through: the storage version if served, else the first served one. */
function servedVersion(crd: CustomResourceDefinition): string | undefined {
  const served = crd.spec.versions.filter((v) => v.served);
  return (served.find((v) => v.storage) ?? served[0])?.name;
}

export class CrdFinalizer extends CrdController {
  constructor(client: RestClient, log: Logger) {
    super(client, log, 'crd-finalizer');
    const queue = (o: Json): void => {
      const crd = o as CustomResourceDefinition; // the decoded JSON of a stored CRD
      if (
        crd.metadata.deletionTimestamp &&
        crd.metadata.finalizers?.includes(customResourceCleanupFinalizer)
      )
        this.enqueue(crd.metadata.name);
    };
    this.informer.addEventHandler({ onAdd: queue, onUpdate: (_old, o) => queue(o) });
  }

  protected async sync(name: string): Promise<SyncResult> {
    const found = this.crd(name);
    if (!found?.metadata.deletionTimestamp) return 'done';
    if (!found.metadata.finalizers?.includes(customResourceCleanupFinalizer)) return 'done';
    let crd = structuredClone(found);
    try {
      // In progress, unless a previous pass already said how far it got.
      if (findCRDCondition(crd.status, 'Terminating')?.reason === 'InstanceDeletionPending')
        crd = await this.#setCondition(
          crd,
          terminating('InstanceDeletionInProgress', 'CustomResource deletion is in progress')
        );
      if (
        isCRDConditionTrue(crd.status, 'Established') &&
        isCRDConditionTrue(crd.status, 'NamesAccepted')
      ) {
        const outcome = await this.#deleteInstances(crd);
        crd = await this.#setCondition(crd, outcome.condition);
        if (!outcome.done) return 'retry';
      } else {
        crd = await this.#setCondition(
          crd,
          terminating('InstanceDeletionCompleted', 'removed all instances', 'False')
        );
      }
      const finalizers = (crd.metadata.finalizers ?? []).filter(
        (f) => f !== customResourceCleanupFinalizer
      );
      await this.client.request('PUT', `${crdsPath}/${name}`, {
        ...crd,
        metadata: { ...crd.metadata, finalizers },
      });
      this.log.info('custom resources cleaned up; finalizer removed', { name });
      return 'done';
    } catch (err) {
      if (isNotFound(err)) return 'done';
      // Changed meanwhile: the informer's next copy is queued.
      if (isConflict(err)) return 'done';
      throw err;
    }
  }

  async #setCondition(
    crd: CustomResourceDefinition,
    cond: CustomResourceDefinitionCondition
  ): Promise<CustomResourceDefinition> {
    const current = findCRDCondition(crd.status, cond.type);
    // An unchanged condition is not written: no write, no informer event, no hot loop.
    if (
      current?.status === cond.status &&
      current.reason === cond.reason &&
      current.message === cond.message
    )
      return crd;
    const next = structuredClone(crd);
    setCRDCondition((next.status ??= {}), cond);
    return (await this.client.request(
      'PUT',
      statusPath(crd.metadata.name),
      next
    )) as CustomResourceDefinition; // the API answers the stored CRD
  }

  /** deleteInstances: every object deleted; done once a list finds none. */
  async #deleteInstances(
    crd: CustomResourceDefinition
  ): Promise<{ done: boolean; condition: CustomResourceDefinitionCondition }> {
    const version = servedVersion(crd);
    if (!version)
      return {
        done: false,
        condition: terminating(
          'InstanceDeletionFailed',
          'could not list instances: no version is served to list them through'
        ),
      };
    const base = `/apis/${crd.spec.group}/${version}`;
    const plural = crd.spec.names.plural;
    const listPath = `${base}/${plural}`;
    let items: Json[];
    try {
      items = ((await this.client.request('GET', listPath))['items'] as Json[] | undefined) ?? [];
    } catch (err) {
      // Not served (yet, or any more): nothing can have been created through it.
      if (isNotFound(err)) return { done: true, condition: completed };
      return {
        done: false,
        condition: terminating(
          'InstanceDeletionFailed',
          `could not list instances: ${String(err)}`
        ),
      };
    }
    const namespaces = new Set<string>();
    for (const it of items)
      namespaces.add(String((it['metadata'] as Json | undefined)?.['namespace'] ?? ''));
    const failures: string[] = [];
    for (const ns of namespaces) {
      const path = ns === '' ? listPath : `${base}/namespaces/${ns}/${plural}`;
      try {
        await this.client.request('DELETE', path);
      } catch (err) {
        if (!isNotFound(err)) failures.push(String(err));
      }
    }
    if (failures.length > 0)
      return {
        done: false,
        condition: terminating(
          'InstanceDeletionFailed',
          `could not issue all deletes: [${failures.join(', ')}]`
        ),
      };
    let left: number;
    try {
      left = (((await this.client.request('GET', listPath))['items'] as Json[] | undefined) ?? [])
        .length;
    } catch (err) {
      if (isNotFound(err)) return { done: true, condition: completed };
      return {
        done: false,
        condition: terminating(
          'InstanceDeletionCheck',
          `could not confirm zero CustomResources remaining: ${String(err)}`
        ),
      };
    }
    if (left > 0)
      return {
        done: false,
        condition: terminating(
          'InstanceDeletionCheck',
          `could not confirm zero CustomResources remaining: timed out waiting for the condition (${left} left)`
        ),
      };
    return { done: true, condition: completed };
  }
}

const completed = terminating('InstanceDeletionCompleted', 'removed all instances', 'False');
