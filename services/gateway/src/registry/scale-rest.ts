// The scale subresource (k8s pkg/registry/apps/deployment/storage ScaleREST, and its copies for
// replicasets, statefulsets and replicationcontrollers): reads the parent as an autoscaling/v1
// Scale (spec.replicas, status.replicas, status.selector as a selector string), and writes
// spec.replicas back to the parent through the parent's Store and strategy, with the Scale's
// resourceVersion as the parent's precondition (none when the Scale carries none).
import {
  fieldInvalid,
  newBadRequest,
  newInvalid,
  newNotFound,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isNegativeErrorMsg } from '@orch/apimachinery/meta';
import { labelSelectorFromLabelSelectorObject } from '@orch/apimachinery/selectors';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';
import type {
  GetOptions,
  Getter,
  ObjectKind,
  RestContext,
  UpdateFunc,
  UpdateOptions,
  Updater,
  ValidateObjectFunc,
} from './rest.js';
import type { Store } from './store.js';

type Json = Record<string, unknown>;
const objectAt = (o: unknown, k: string): Json => {
  const v = typeof o === 'object' && o !== null ? (o as Json)[k] : undefined;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
};

export const scaleKind: ObjectKind = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
  namespaced: true,
};

/** The selector of a parent as a string: a LabelSelector (apps) or a label map (core RC). */
function selectorString(parent: ApiObject): string {
  const sel = objectAt(parent, 'spec')['selector'];
  if (sel === undefined || sel === null) return '';
  const isLabelMap =
    parent['apiVersion'] === 'v1' && Object.values(sel as Json).every((v) => typeof v === 'string');
  const obj = (isLabelMap ? { matchLabels: sel } : sel) as LabelSelectorObject;
  try {
    return labelSelectorFromLabelSelectorObject(obj).toString();
  } catch {
    return '';
  }
}

/**
 * An autoscaling/v1 Scale of a parent: the parent's identity metadata, the replicas given, and
 * the selector when given (built-in kinds and custom resources both answer /scale with it).
 */
export function newScale(
  parent: ApiObject,
  replicas: { spec: number; status: number },
  selector: string | undefined
): ApiObject {
  const m = parent.metadata;
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: {
      name: m.name,
      ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
      ...(m.uid !== undefined ? { uid: m.uid } : {}),
      ...(m.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}),
      ...(m.creationTimestamp !== undefined ? { creationTimestamp: m.creationTimestamp } : {}),
    },
    spec: { replicas: replicas.spec },
    status: {
      replicas: replicas.status,
      ...(selector !== undefined ? { selector } : {}),
    },
  } as ApiObject;
}

/** scaleFromDeployment (and its siblings): the Scale of a parent. */
export function scaleOf(parent: ApiObject): ApiObject {
  const replicas = objectAt(parent, 'spec')['replicas'];
  return newScale(
    parent,
    {
      spec: typeof replicas === 'number' ? replicas : 0,
      status: Number(objectAt(parent, 'status')['replicas'] ?? 0),
    },
    selectorString(parent)
  );
}

/** ValidateScale: spec.replicas non-negative (the metadata is the parent's). */
export function validateScale(scale: ApiObject): FieldError[] {
  const replicas = objectAt(scale, 'spec')['replicas'];
  return typeof replicas === 'number' && replicas < 0
    ? [fieldInvalid(newPath('spec', 'replicas'), replicas, isNegativeErrorMsg)]
    : [];
}

export class ScaleRest implements Getter, Updater {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  get objectKind(): ObjectKind {
    return scaleKind;
  }

  async get(ctx: RestContext, name: string, opts: GetOptions): Promise<ApiObject> {
    return scaleOf(await this.#store.get(ctx, name, opts));
  }

  async update(
    ctx: RestContext,
    name: string,
    objInfo: UpdateFunc,
    opts: UpdateOptions
  ): Promise<{ object: ApiObject; created: boolean }> {
    const groupResource = { group: this.#store.def.group, resource: this.#store.def.resource };
    // Admission sees Scales (k8s toScaleUpdateValidation).
    const asScale = (v: ValidateObjectFunc | undefined): ValidateObjectFunc | undefined =>
      v && ((obj, old) => v(scaleOf(obj), old && scaleOf(old)));
    const result = await this.#store.update(
      ctx,
      name,
      async (current) => {
        if (!current) throw newNotFound(groupResource, name);
        const scale = await objInfo(scaleOf(current));
        if (!scale) throw newBadRequest('nil update passed to Scale');
        const errs = validateScale(scale);
        if (errs.length > 0) throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, name, errs);
        const parent = current;
        const spec = (parent['spec'] ??= {}) as Json;
        spec['replicas'] = objectAt(scale, 'spec')['replicas'] ?? 0;
        const rv = scale.metadata?.resourceVersion;
        if (rv) parent.metadata.resourceVersion = rv;
        else delete parent.metadata.resourceVersion;
        return parent;
      },
      {
        ...opts,
        forceAllowCreate: false,
        createValidation: undefined,
        updateValidation: asScale(opts.updateValidation),
      }
    );
    return { object: scaleOf(result.object), created: false };
  }
}
