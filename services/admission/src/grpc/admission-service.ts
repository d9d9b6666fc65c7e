// The orch.admission.v1.Admission gRPC service (k8s chainAdmissionHandler as the gateway asks
// for one run of it): the named plugins' admit (mutating phase) or validate (validating phase)
// in the order given, for the operations each handles; the first denial ends the run. A thrown
// StatusError is the denial's Status; any other error is an internal error naming the plugin.
// The object is returned only if a plugin changed it. Latency is observed per step and per
// plugin in upstream's metric names (k8s.io/apiserver/pkg/admission/metrics).
import type {
  handleUnaryCall,
  sendUnaryData,
  ServerDuplexStream,
  ServerUnaryCall,
} from '@grpc/grpc-js';
import { Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { withStability } from '@orch/component-base/metrics';
import { mayActOn } from '@orch/apimachinery/admission';
import type { PodSecurityScope } from '@orch/apimachinery/admission';
import type {
  AdmissionHandlers,
  AdmitCallRequest__Output,
  AdmitCallResponse,
  AdmitRequest__Output,
  AdmitResponse,
  ListPluginsResponse,
} from '@orch/proto';
import {
  StatusError,
  newBadRequest,
  newInternalError,
  newServiceUnavailable,
} from '@orch/apimachinery/errors';
import {
  AdmissionMappingError,
  admitCallFromProto,
  admitResultToProto,
  podSecurityScopeToProto,
} from '@orch/apimachinery/grpc';
import type { AdmitResult } from '@orch/apimachinery/grpc';
import { serveCalls, unaryHandlers } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import type { AdmissionContext, AdmissionRequest, ServicePlugin } from '../interfaces.js';
import { pluginsNeedingConfiguration } from '../plugins.js';

export interface AdmissionMetrics {
  /** Latency of the gRPC call, by rpc and gRPC code. */
  latency: Histogram<'rpc' | 'code'>;
  /** apiserver_admission_step_admission_duration_seconds. */
  step: Histogram<'type' | 'operation' | 'rejected'>;
  /** apiserver_admission_controller_admission_duration_seconds. */
  controller: Histogram<'name' | 'type' | 'operation' | 'rejected'>;
}

/** The metrics of the service, registered in `registry`. */
export function newAdmissionMetrics(registry: Registry): AdmissionMetrics {
  const buckets = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
  return {
    latency: new Histogram({
      name: 'orch_admission_request_duration_seconds',
      help: 'Admission service request latency by RPC and gRPC code.',
      labelNames: ['rpc', 'code'] as const,
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 1, 10],
      registers: [registry],
    }),
    step: new Histogram(
      withStability(
        {
          name: 'apiserver_admission_step_admission_duration_seconds',
          help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
          labelNames: ['type', 'operation', 'rejected'] as const,
          buckets,
          registers: [registry],
        },
        { stabilityLevel: 'STABLE' }
      )
    ),
    controller: new Histogram(
      withStability(
        {
          name: 'apiserver_admission_controller_admission_duration_seconds',
          help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
          labelNames: ['name', 'type', 'operation', 'rejected'] as const,
          buckets,
          registers: [registry],
        },
        { stabilityLevel: 'STABLE' }
      )
    ),
  };
}

export interface AdmissionServiceOptions {
  plugins: ReadonlyMap<string, ServicePlugin>;
  /**
   * The plugins the service serves (ListPlugins), in the order they run: every registered one,
   * also one not built for want of its configuration (a call naming it fails saying so).
   */
  served: readonly string[];
  /** The ResourceQuota plugin's configuration has limitedResources (ListPlugins says it). */
  quotaLimitedResources?: boolean;
  /** PodSecurity's defaults and exemptions, when it is served (ListPlugins says them). */
  podSecurity?: PodSecurityScope;
  metrics: AdmissionMetrics;
  log: Logger;
  /** False until the namespaces are synced; calls then fail as unavailable. */
  ready?: () => boolean;
  /** Aborts when the server begins to stop: each AdmitCalls stream then ends once answered. */
  stopping?: AbortSignal;
}

/** Runs one phase of the named plugins over `req`; `req.object` ends as the final object. */
export async function runPlugins(
  plugins: readonly ServicePlugin[],
  phase: 'mutating' | 'validating',
  req: AdmissionRequest,
  ctxFor: (plugin: ServicePlugin) => AdmissionContext,
  metrics: AdmissionMetrics
): Promise<void> {
  const type = phase === 'mutating' ? 'admit' : 'validate';
  const operation = req.operation;
  const stepEnd = metrics.step.startTimer({ type, operation });
  let rejected = false;
  try {
    for (const p of plugins) {
      const step = phase === 'mutating' ? p.admit : p.validate;
      if (!step || !p.handles(operation)) continue;
      const end = metrics.controller.startTimer({ name: p.name, type, operation });
      try {
        await step.call(p, req, ctxFor(p));
        end({ rejected: 'false' });
      } catch (err) {
        end({ rejected: 'true' });
        rejected = true;
        if (err instanceof StatusError) throw err;
        throw newInternalError(
          `admission plugin ${p.name} failed: ${err instanceof Error ? err.message : String(err)}`
        );
      }
    }
  } finally {
    stepEnd({ rejected: String(rejected) });
  }
}

/**
 * No plugin of the call can act on the request in the validating phase: none validates this
 * operation, or each that does has the resource out of its scope (servicePluginScopes) or says
 * it cannot for this resource and operation.
 */
export async function validatingPhaseIdle(
  plugins: readonly ServicePlugin[],
  req: AdmissionRequest
): Promise<boolean> {
  for (const p of plugins) {
    if (!p.validate || !p.handles(req.operation) || !mayActOn(p.name, req.resource)) continue;
    if (!p.mayValidate || (await p.mayValidate(req))) return false;
  }
  return true;
}

export function admissionService(opts: AdmissionServiceOptions): AdmissionHandlers {
  const { plugins, metrics, log } = opts;
  const notReady = (): StatusError | undefined =>
    opts.ready === undefined || opts.ready()
      ? undefined
      : newServiceUnavailable('the admission service is starting: its caches are not synced yet');
  const timing = { latency: metrics.latency, label: 'rpc' as const, notReady };
  const unary = unaryHandlers(timing);

  const admit = async (m: AdmitRequest__Output, signal: AbortSignal): Promise<AdmitResponse> => {
    let call;
    try {
      call = admitCallFromProto(m);
    } catch (err) {
      if (err instanceof AdmissionMappingError) throw newBadRequest(err.message);
      throw err;
    }
    const chosen: ServicePlugin[] = [];
    for (const name of call.plugins) {
      const p = plugins.get(name);
      if (!p && pluginsNeedingConfiguration.has(name)) {
        throw newBadRequest(
          `admission plugin ${JSON.stringify(name)} is enabled but not configured in the ` +
            'admission service (its configuration goes in --admission-control-config-file)'
        );
      }
      if (!p) {
        throw newBadRequest(
          `admission plugin ${JSON.stringify(name)} is not registered in the admission service ` +
            `(registered: ${[...plugins.keys()].sort().join(', ') || 'none'})`
        );
      }
      chosen.push(p);
    }
    const req: AdmissionRequest = call.request;
    // A plugin may replace the object or change it in place: compare by content.
    const original = call.phase === 'mutating' ? JSON.stringify(req.object) : undefined;
    const warnings: string[] = [];
    const auditAnnotations: Record<string, string> = {};
    // A key with a prefix (`mutation.webhook.admission.orch.io/round_0_index_0`) is kept;
    // a bare key gets the plugin's (`alwayspullimages.admission.orch.io/<key>`). The first
    // value of a key stays (k8s AddAnnotation refuses to overwrite).
    const ctxFor = (p: ServicePlugin): AdmissionContext => ({
      warn: (text) => warnings.push(text),
      annotate: (key, value) => {
        const k = key.includes('/') ? key : `${p.name.toLowerCase()}.admission.orch.io/${key}`;
        if (!(k in auditAnnotations)) auditAnnotations[k] = value;
      },
      signal,
    });
    const result: AdmitResult = {
      allowed: true,
      status: undefined,
      object: undefined,
      warnings,
      auditAnnotations,
    };
    try {
      await runPlugins(chosen, call.phase, req, ctxFor, metrics);
    } catch (err) {
      const se = err instanceof StatusError ? err : newInternalError(err);
      if (se.code >= 500) log.warn('admission plugin failed', { error: se.message });
      return admitResultToProto({ ...result, allowed: false, status: se.status });
    }
    if (call.phase === 'mutating') {
      if (JSON.stringify(req.object) !== original) result.object = req.object;
      result.validatingPhaseIdle = await validatingPhaseIdle(chosen, req);
    }
    return admitResultToProto(result);
  };

  return {
    ListPlugins: unary('ListPlugins', (): ListPluginsResponse => ({
      plugins: [...opts.served],
      resource_quota_limited_resources: opts.quotaLimitedResources ?? true,
      pod_security: podSecurityScopeToProto(opts.podSecurity),
    })),
    Admit: ((
      call: ServerUnaryCall<AdmitRequest__Output, AdmitResponse>,
      cb: sendUnaryData<AdmitResponse>
    ) => {
      const ac = new AbortController();
      // grpc-js also reports a call as cancelled once it has been answered; aborting then would
      // cost a DOMException with its stack trace per call for nothing.
      let answered = false;
      call.on('cancelled', () => {
        if (!answered) ac.abort();
      });
      unary<AdmitRequest__Output, AdmitResponse>('Admit', (req) => admit(req, ac.signal))(
        call,
        (err, res) => {
          answered = true;
          cb(err, res);
        }
      );
    }) as handleUnaryCall<AdmitRequest__Output, AdmitResponse>,
    // Admit calls on one stream, each answered with its id in whatever order they end, a
    // failed one with its error (the unary call's status). A cancelled stream aborts its calls;
    // the stream ends once its calls are answered, after the caller's end or the server's stop.
    AdmitCalls: (call: ServerDuplexStream<AdmitCallRequest__Output, AdmitCallResponse>) => {
      const ac = new AbortController();
      call.on('cancelled', () => ac.abort());
      serveCalls(call, { ...timing, stopping: opts.stopping }, (m) => ({
        member: 'admit',
        name: 'Admit',
        run: () =>
          m.admit
            ? admit(m.admit, ac.signal)
            : Promise.reject(newBadRequest('an AdmitCalls request names no call')),
      }));
    },
  };
}
