// Namespaces: born Active with the `orch.io/namespace` finalizer in spec.finalizers; a delete
// makes them Terminating, and the namespace controller removes their content, then the
// finalizer (through the `finalize` subresource), after which the namespace is removed.
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';

export const namespaceFinalizer = 'orch.io/namespace';

const base = defaultStrategy({ hasStatus: true });

const spec = (o: ApiObject): { finalizers?: string[] } =>
  (o['spec'] ??= {}) as { finalizers?: string[] };

export const namespaceStrategy: Strategy = {
  ...base,
  nameRule: 'label',
  prepareForCreate(obj) {
    obj['status'] = { phase: 'Active' };
    const s = spec(obj);
    if (!s.finalizers?.includes(namespaceFinalizer))
      s.finalizers = [...(s.finalizers ?? []), namespaceFinalizer];
  },
  prepareForUpdate(obj, old) {
    // Neither status nor spec.finalizers change through the main resource.
    obj['status'] = old['status'];
    spec(obj).finalizers = spec(old).finalizers ?? [];
  },
  validate(obj) {
    const errs: FieldError[] = [];
    const f = spec(obj).finalizers;
    if (f !== undefined && !Array.isArray(f))
      errs.push({
        type: 'FieldValueInvalid',
        field: 'spec.finalizers',
        message: 'must be a list of strings',
        value: f,
      });
    return errs;
  },
  prepareForGracefulDelete(obj) {
    obj['status'] = { ...((obj['status'] as object | undefined) ?? {}), phase: 'Terminating' };
  },
  pendingFinalizers(obj) {
    return spec(obj).finalizers ?? [];
  },
};
