// The scale subresource of a custom resource (upstream pkg/registry/customresource/etcd.go
// ScaleREST, scaleFromCustomResource, copyScaleToCustomResource): the object read as an
// autoscaling/v1 Scale through the CRD's specReplicasPath, statusReplicasPath and
// labelSelectorPath, and spec replicas written back through the object's Store.
import { newBadRequest, newInvalid, newNotFound } from '@orch/apimachinery/errors';
import type { CustomResourceSubresourceScale } from '@orch/apimachinery/apiextensions';
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  GetOptions,
  Getter,
  ObjectKind,
  RestContext,
  UpdateFunc,
  UpdateOptions,
  Updater,
  ValidateObjectFunc,
} from '../../rest.js';
import { newScale, scaleKind, validateScale } from '../../scale-rest.js';
import type { Store } from '../../store.js';

type Json = Record<string, unknown>;

/** `.spec.replicas` → ['spec', 'replicas'] (the CRD's validation allows only dotted field paths). */
export function pathFields(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter(Boolean);
}

function readPath(obj: unknown, path: string | undefined): unknown {
  if (!path) return undefined;
  let v: unknown = obj;
  for (const f of pathFields(path)) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Json)[f];
  }
  return v;
}

function writePath(obj: Json, path: string, value: unknown): void {
  const fields = pathFields(path);
  let cur = obj;
  for (const f of fields.slice(0, -1)) {
    const next = cur[f];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[f] = {};
    cur = cur[f] as Json;
  }
  cur[fields[fields.length - 1]!] = value;
}

/** scaleFromCustomResource: missing replicas read as 0, a missing selector as "". */
export function scaleFromCustomResource(
  cr: ApiObject,
  paths: CustomResourceSubresourceScale
): ApiObject {
  const spec = readPath(cr, paths.specReplicasPath);
  const status = readPath(cr, paths.statusReplicasPath);
  const selector = readPath(cr, paths.labelSelectorPath);
  return newScale(
    cr,
    {
      spec: typeof spec === 'number' ? spec : 0,
      status: typeof status === 'number' ? status : 0,
    },
    typeof selector === 'string' && selector ? selector : undefined
  );
}

export class CustomResourceScaleRest implements Getter, Updater {
  readonly #store: Store;
  readonly #paths: CustomResourceSubresourceScale;

  constructor(store: Store, paths: CustomResourceSubresourceScale) {
    this.#store = store;
    this.#paths = paths;
  }

  get objectKind(): ObjectKind {
    return scaleKind;
  }

  async get(ctx: RestContext, name: string, opts: GetOptions): Promise<ApiObject> {
    return scaleFromCustomResource(await this.#store.get(ctx, name, opts), this.#paths);
  }

  async update(
    ctx: RestContext,
    name: string,
    objInfo: UpdateFunc,
    opts: UpdateOptions
  ): Promise<{ object: ApiObject; created: boolean }> {
    const groupResource = this.#store.groupResource;
    const paths = this.#paths;
    const asScale = (v: ValidateObjectFunc | undefined): ValidateObjectFunc | undefined =>
      v &&
      ((obj, old) =>
        v(scaleFromCustomResource(obj, paths), old && scaleFromCustomResource(old, paths)));
    const result = await this.#store.update(
      ctx,
      name,
      async (current) => {
        if (!current) throw newNotFound(groupResource, name);
        const scale = await objInfo(scaleFromCustomResource(current, paths));
        if (!scale) throw newBadRequest('nil update passed to Scale');
        const errs = validateScale(scale);
        if (errs.length > 0) throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, name, errs);
        const parent = structuredClone(current);
        const replicas = (scale['spec'] as Json | undefined)?.['replicas'] ?? 0;
        writePath(parent, paths.specReplicasPath, replicas);
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
    return { object: scaleFromCustomResource(result.object, paths), created: false };
  }
}
