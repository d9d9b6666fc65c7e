// The chain member of a run of consecutive service plugins (the gateway's side of the
// admission service, k8s admission plugins that live out of process here): one Admit call per
// phase naming the plugins in order. A denial is the service's Status; a mutation replaces the
// object's content in place (the handler and the Store hold that object); warnings go to the
// request's Warning headers; audit annotations (PodSecurity's audit mode, a policy's Audit
// action, webhooks' own) to the request's audit event (a write from inside the gateway has none:
// they are logged at debug).
//
// The mutating reply says when no plugin of the run can act on the request in the validating
// phase (by resource and operation); the validating call for that object is then left out.
// When every plugin of the run is out of scope, neither call is made: statically by its scope
// (`@orch/apimachinery/admission` servicePluginScopes, which a test holds to the plugins' code),
// or, for a webhook, policy or quota plugin, and PodSecurity on a pod controller, by what the
// gateway's caches of their configurations, quotas and namespaces prove (dynamic-scope.ts;
// without it such a plugin keeps the calls).
//
// Fail closed: if the service cannot be reached or fails, the write fails with a 503
// (unavailable) or 500 (any other failure) Status saying admission could not run; it never
// goes on without admission.
import { dynamicScopeSources, mayActOn } from '@orch/apimachinery/admission';
import { StatusError, newInternalError, newServiceUnavailable } from '@orch/apimachinery/errors';
import type { AdmissionCallRequest, AdmitCall, AdmitResult } from '@orch/apimachinery/grpc';
import type { Logger } from '@orch/component-base/logs';
import type { ServicePluginName } from '../chain.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../interfaces.js';
import type { DynamicAdmissionScope } from './dynamic-scope.js';

/** What the member needs of a client (AdmissionClient satisfies it). */
export interface AdmissionCaller {
  admit(call: AdmitCall): Promise<AdmitResult>;
}

/** Counts the calls made and skipped (the gateway's orch_gateway_admission_service_calls_total). */
export interface CallCounter {
  inc(labels: { phase: 'mutating' | 'validating'; result: 'made' | 'skipped' }): void;
}

/**
 * The user of writes the gateway makes itself (system namespaces): upstream's loopback client,
 * system:apiserver in system:masters.
 */
const internalUser = { name: 'system:apiserver', uid: '', groups: ['system:masters'], extra: {} };

/** A write's attributes as the Admit call carries them (the certificates member's too). */
export function requestOf(a: AdmissionAttributes): AdmissionCallRequest {
  return {
    operation: a.operation,
    kind: a.kind,
    resource: a.resource,
    subResource: a.subresource,
    namespace: a.namespace,
    name: a.name,
    userInfo: a.user ?? internalUser,
    object: a.object,
    oldObject: a.oldObject,
    options: a.options as Record<string, unknown> | undefined,
    dryRun: a.dryRun,
  };
}

/** The error of a call that did not answer: admission could not run. */
function couldNotRun(err: unknown, names: readonly string[]): StatusError {
  const why = err instanceof Error ? err.message : String(err);
  const message = `admission could not run: the admission service (plugins ${names.join(', ')}) failed: ${why}`;
  if (err instanceof StatusError && err.code === 503) return newServiceUnavailable(message);
  return newInternalError(message);
}

export function servicePlugins(
  names: readonly ServicePluginName[],
  client: AdmissionCaller,
  log: Logger,
  calls?: CallCounter,
  dynamic?: DynamicAdmissionScope
): AdmissionPlugin {
  /** Objects whose validating phase the service said is idle (the same object reaches both). */
  const validatingIdle = new WeakSet<object>();
  /**
   * The run's plugins whose static scope takes in a resource (memoized per resource), split
   * into those that may act on its every write and those whose dynamic source decides per write.
   */
  type RunScope = { always: boolean; dynamic: readonly ServicePluginName[] };
  const byResource = new Map<string, RunScope>();
  const inScope = (a: AdmissionAttributes): RunScope => {
    const key = `${a.resource.group}/${a.resource.resource}`;
    let v = byResource.get(key);
    if (v === undefined) {
      const inStatic = names.filter((n) => mayActOn(n, a.resource));
      const narrowed = inStatic.filter((n) => dynamicScopeSources[n] !== undefined);
      v = { always: narrowed.length < inStatic.length, dynamic: narrowed };
      byResource.set(key, v);
    }
    return v;
  };
  const mayAct = (a: AdmissionAttributes): boolean => {
    const scope = inScope(a);
    if (scope.always) return true;
    if (!dynamic) return scope.dynamic.length > 0;
    return scope.dynamic.some((n) => dynamic.mayAct(dynamicScopeSources[n]!, a));
  };
  const skip = (phase: 'mutating' | 'validating'): Promise<void> => {
    calls?.inc({ phase, result: 'skipped' });
    return Promise.resolve();
  };
  const call = async (phase: 'mutating' | 'validating', a: AdmissionAttributes): Promise<void> => {
    calls?.inc({ phase, result: 'made' });
    let result: AdmitResult;
    try {
      result = await client.admit({ phase, plugins: [...names], request: requestOf(a) });
    } catch (err) {
      throw couldNotRun(err, names);
    }
    for (const w of result.warnings) a.warn?.(w);
    const annotations = Object.entries(result.auditAnnotations);
    if (a.annotate) {
      for (const [k, v] of annotations) a.annotate(k, v);
    } else if (annotations.length > 0) {
      log.debug('admission audit annotations of a write without an audit event', {
        resource: a.resource.resource,
        namespace: a.namespace,
        name: a.name,
        annotations: result.auditAnnotations,
      });
    }
    if (!result.allowed) {
      throw result.status
        ? new StatusError(result.status)
        : newInternalError(
            `admission could not run: the admission service denied without a Status (plugins ${names.join(', ')})`
          );
    }
    if (phase === 'mutating' && result.object && a.object) {
      const target: Record<string, unknown> = a.object;
      for (const k of Object.keys(target)) delete target[k];
      Object.assign(target, result.object);
    }
    if (phase === 'mutating' && result.validatingPhaseIdle && a.object)
      validatingIdle.add(a.object);
  };
  return {
    name: `service(${names.join(',')})`,
    handles: () => true,
    admit: (a) => (mayAct(a) ? call('mutating', a) : skip('mutating')),
    validate: (a) =>
      !mayAct(a) || (a.object && validatingIdle.has(a.object))
        ? skip('validating')
        : call('validating', a),
  };
}
