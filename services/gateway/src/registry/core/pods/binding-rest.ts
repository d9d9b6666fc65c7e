// pods/binding and the `bindings` collection: a core v1 Binding assigns a pod to a node
// (upstream pkg/registry/core/pod/storage BindingREST: Create, assignPod,
// setPodHostAndAnnotations). spec.nodeName is set only when unset, the binding's annotations are
// copied onto the pod and its PodScheduled condition becomes True; a pod already bound, being
// deleted or gated is a 409. The pod is written as it is, without the pod strategy (upstream
// writes through the storage's GuaranteedUpdate directly), so status may change and generation
// does not.
import {
  fieldNotSupported,
  fieldRequired,
  newBadRequest,
  newConflict,
  newInvalid,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import { now } from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Binding, PodStatus } from '@orch/api/core/v1';
import type { CreateOptions, Creater, NamedCreater, ObjectKind, RestContext } from '../../rest.js';
import type { Store } from '../../store.js';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';

/** A Binding as written: the generated kind, with the metadata every object has. */
type BindingObject = ApiObject & Binding;

/** Writes the pod as the update function left it (status included), generation kept. */
const bindingStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  keepsGeneration: true,
};

const podsBinding = { group: '', resource: 'pods/binding' };

/** ValidatePodBinding: a target name, and a target kind of Node when one is given. */
export function validateBinding(b: BindingObject): FieldError[] {
  const errs: FieldError[] = [];
  const target = newPath('target');
  const kind = b.target?.kind ?? '';
  if (kind !== '' && kind !== 'Node')
    errs.push(fieldNotSupported(target.child('kind'), kind, ['Node', '<empty>']));
  if (!b.target?.name) errs.push(fieldRequired(target.child('name'), ''));
  return errs;
}

export class BindingRest implements Creater, NamedCreater {
  readonly objectKind: ObjectKind = { group: '', version: 'v1', kind: 'Binding', namespaced: true };
  readonly #pods: Store;

  constructor(pods: Store) {
    this.#pods = pods.withStrategy(bindingStrategy);
  }

  /** POST .../pods/<name>/binding: the URL names the pod. */
  async createNamed(
    ctx: RestContext,
    name: string,
    obj: ApiObject,
    opts: CreateOptions
  ): Promise<ApiObject> {
    const b: BindingObject = obj;
    if (b.metadata.name && b.metadata.name !== name) {
      throw newBadRequest('name in URL does not match name in Binding object');
    }
    b.metadata.name = name;
    return this.create(ctx, obj, opts);
  }

  /** POST .../bindings: the Binding's name is the pod's. */
  async create(ctx: RestContext, obj: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    const b: BindingObject = obj;
    const name = b.metadata.name ?? '';
    const errs = validateBinding(b);
    if (!name)
      errs.unshift(fieldRequired(newPath('metadata', 'name'), 'name or generateName is required'));
    if (errs.length > 0) throw newInvalid({ group: '', kind: 'Binding' }, name, errs);
    await opts.createValidation?.(obj, undefined);
    const node = b.target?.name ?? '';
    await this.#pods.update(
      ctx,
      name,
      async (pod) => {
        if (!pod) throw new Error('unreachable: a missing pod is 404 (forceAllowCreate: false)');
        assignPod(pod, b, node);
        return pod;
      },
      { dryRun: opts.dryRun, forceAllowCreate: false }
    );
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      code: 201,
    };
  }
}

/** setPodHostAndAnnotations on the current pod; refusals are 409 on pods/binding. */
function assignPod(pod: ApiObject, b: BindingObject, node: string): void {
  const name = pod.metadata.name ?? '';
  const conflict = (msg: string): Error => newConflict(podsBinding, name, msg);
  const pre = b.metadata;
  if (pre.uid && pre.uid !== pod.metadata.uid) {
    throw conflict(
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${pod.metadata.uid ?? ''}`
    );
  }
  if (pre.resourceVersion && pre.resourceVersion !== pod.metadata.resourceVersion) {
    throw conflict(
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${pod.metadata.resourceVersion ?? ''}`
    );
  }
  if (pod.metadata.deletionTimestamp) {
    throw conflict(`pod ${name} is being deleted, cannot be assigned to a host`);
  }
  const spec = (pod['spec'] ??= {}) as { nodeName?: string; schedulingGates?: unknown[] };
  if (spec.nodeName) throw conflict(`pod ${name} is already assigned to node "${spec.nodeName}"`);
  if ((spec.schedulingGates ?? []).length > 0) {
    throw conflict(`pod ${name} has non-empty .spec.schedulingGates`);
  }
  spec.nodeName = node;
  const annotations = b.metadata.annotations ?? {};
  if (Object.keys(annotations).length > 0) {
    pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...annotations };
  }
  const status = (pod['status'] ??= {}) as PodStatus;
  const conditions = status.conditions ?? [];
  const scheduled = conditions.find((c) => c.type === 'PodScheduled');
  // podutil.UpdatePodCondition: the transition time moves only when the status changes.
  if (!scheduled)
    conditions.push({ type: 'PodScheduled', status: 'True', lastTransitionTime: now() });
  else if (scheduled.status !== 'True') {
    scheduled.status = 'True';
    scheduled.lastTransitionTime = now();
  }
  status.conditions = conditions;
}
