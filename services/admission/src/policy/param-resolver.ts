// The params a binding selects for a policy with a paramKind (upstream validating/dispatcher.go
// collectParams): paramRef by name, or by label selector, in paramRef.namespace or else the
// request's namespace for a namespaced paramKind; parameterNotFoundAction Deny turns "none
// found" into an error the policy's failurePolicy judges, Allow skips the binding.
import type { ApiObject } from '@orch/apimachinery/meta';
import { builtinResources } from '@orch/apimachinery/registry';
import { formatApiVersion } from '@orch/apimachinery/schema';

import type { AdmissionRequest, Listers } from '../interfaces.js';
import { compileSelector } from '../matching/index.js';

import type { CompiledBinding, CompiledPolicy } from './compiled-policy.js';

/** A policy or binding that cannot be applied as configured ("failed to configure ..."). */
export class PolicyConfigError extends Error {
  override readonly name = 'PolicyConfigError';
}

/** The params: [null] without a paramKind, [] to skip the binding. Throws PolicyConfigError. */
export async function resolveParams(
  listers: Listers,
  policy: CompiledPolicy,
  binding: CompiledBinding,
  req: AdmissionRequest
): Promise<(ApiObject | null)[]> {
  const pk = policy.paramKind;
  if (!pk) return [null];
  const ref = binding.paramRef;
  if (!ref) throw new PolicyConfigError('paramRef is required when paramKind is set');
  const def = builtinResources.find(
    (d) => formatApiVersion(d) === pk.apiVersion && d.kind === pk.kind
  );
  if (!def) {
    throw new PolicyConfigError(
      `failed to find resource referenced by paramKind: '${pk.apiVersion}, Kind=${pk.kind}'`
    );
  }
  const lister = await listers.forResource(def.group, def.resource);
  let namespace = '';
  if (def.namespaced) {
    namespace = ref.namespace || req.namespace;
    if (namespace === '') {
      throw new PolicyConfigError(
        'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources'
      );
    }
  }
  let found: ApiObject[];
  if (ref.name !== '') {
    const o = lister.get(namespace, ref.name);
    found = o ? [o] : [];
  } else {
    const sel = compileSelector(ref.selector ?? {});
    if (sel.error) {
      throw new PolicyConfigError(`failed to parse paramRef selector: ${sel.error.message}`);
    }
    found = lister
      .list(def.namespaced ? namespace : undefined)
      .filter((o) => sel.selector.matches(o.metadata.labels));
  }
  if (found.length === 0 && ref.parameterNotFoundAction === 'Deny') {
    throw new PolicyConfigError(
      'no params found for policy binding with `Deny` parameterNotFoundAction'
    );
  }
  return found;
}
