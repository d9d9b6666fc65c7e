// The seam admission plugs into: the attributes of a write as upstream's admission.Attributes
// carries them, and the adapter that binds a validation to a request's attributes for the Store
// to call with the final object (k8s admission.AdmissionToValidateObjectFunc). The handler
// builds the static attributes from the request info and the user in the request context;
// nothing below it reads the HTTP request.
import type { GroupVersionResource } from '@orch/apimachinery/schema';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ValidateObjectFunc } from './rest.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: Operation;
  resource: GroupVersionResource;
  /** '' for the object itself. */
  subresource: string;
  /** '' for cluster-scoped resources. */
  namespace: string;
  name: string;
  /** The requester; undefined for writes from inside the gateway (system namespaces). */
  user: UserInfo | undefined;
  dryRun: boolean;
  /** The object to be written; undefined on delete. */
  object: ApiObject | undefined;
  /** The stored object an update or delete starts from. */
  oldObject: ApiObject | undefined;
}

/** What the handler knows before the Store has the final object. */
export type StaticAttributes = Omit<AdmissionAttributes, 'object' | 'oldObject'> & {
  namespaced: boolean;
};

/** The validating phase of admission (k8s admission.ValidationInterface) as one function. */
export type ValidationFunc = (attrs: AdmissionAttributes) => Promise<void>;

/**
 * Binds a validation to a request's attributes (k8s AdmissionToValidateObjectFunc): the name
 * and namespace come from the final object when it has them (generateName, a namespace in the
 * body of a POST to a cluster-wide path).
 */
export function validateObjectFunc(
  validation: ValidationFunc | undefined,
  attrs: StaticAttributes
): ValidateObjectFunc | undefined {
  if (!validation) return undefined;
  const { namespaced, ...base } = attrs;
  return (obj, old) => {
    const current = attrs.operation === 'DELETE' ? undefined : obj;
    const named = current ?? old;
    return validation({
      ...base,
      name: named?.metadata.name || base.name,
      namespace: namespaced ? named?.metadata.namespace || base.namespace : '',
      object: current,
      oldObject: attrs.operation === 'DELETE' ? obj : old,
    });
  };
}

/** Runs validations in order (k8s admission chain's validating phase). */
export function validationChain(...steps: (ValidationFunc | undefined)[]): ValidationFunc {
  const all = steps.filter((f): f is ValidationFunc => f !== undefined);
  return async (attrs) => {
    for (const f of all) await f(attrs);
  };
}
