// The ValidatingAdmissionPolicy plugin (k8s.io/apiserver/pkg/admission/plugin/policy/validating:
// plugin.go, dispatcher.go). Policies and bindings come from informer-backed listers and are
// compiled once per uid and resourceVersion. For each policy whose matchConstraints match, each
// of its bindings whose matchResources match, and each param the binding selects, the policy is
// evaluated (policy-evaluator.ts); its failures are acted on per the binding's
// validationActions: Deny fails the request (the first denial, after every policy ran), Warn
// adds a warning, Audit adds to the validation_failure audit annotation. A policy or binding
// that cannot be applied (a selector or paramRef problem) fails the request with an internal
// error under failurePolicy Fail and is skipped under Ignore.
import { performance } from 'node:perf_hooks';

import type { StatusReason } from '@orch/apimachinery/errors';
import { newForbidden, newInternalError, StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { toCelValue } from '@orch/apimachinery/cel';
import { Counter, Histogram } from 'prom-client';
import { withStability } from '@orch/component-base/metrics';

import type {
  AdmissionContext,
  AdmissionRequest,
  Operation,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';
import {
  Matcher,
  mayMatch,
  ServedEquivalentResources,
  versionedRequest,
} from '../matching/index.js';
import type { MatchedResource } from '../matching/index.js';

import { requestActivation } from './activation.js';
import type { CompiledBinding, CompiledPolicy } from './compiled-policy.js';
import { CompileCache, compileBinding, compilePolicy } from './compiled-policy.js';
import { resolveParams } from './param-resolver.js';
import type { PolicyFailure } from './policy-evaluator.js';
import { evaluatePolicy } from './policy-evaluator.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'ValidatingAdmissionPolicy' satisfies ServicePluginName;

export const POLICY_GROUP = 'admissionregistration.orch.io';
/** The audit annotation of failed validations with the Audit action. */
export const VALIDATION_FAILURE_ANNOTATION =
  'validation.policy.admission.orch.io/validation_failure';

const REASON_CODES: Readonly<Record<string, number>> = {
  Unauthorized: 401,
  Forbidden: 403,
  Invalid: 422,
  RequestEntityTooLarge: 413,
};

/** One entry of the validation_failure annotation (upstream validationFailureValue). */
interface AuditFailure {
  message: string;
  policy: string;
  binding: string;
  expressionIndex: number;
  validationActions: string[];
}

/** What one admission gathers across policies before it answers. */
interface Outcome {
  denials: { policy: string; binding: string; failure: PolicyFailure }[];
  audit: AuditFailure[];
  configErrors: string[];
}

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The denial upstream returns: admission.NewForbidden with the decision's reason and code. */
function denial(req: AdmissionRequest, message: string, reason: string): StatusError {
  const s = newForbidden(
    { group: req.resource.group, resource: req.resource.resource },
    req.name,
    message
  ).status;
  const known = REASON_CODES[reason] !== undefined;
  return new StatusError({
    ...s,
    reason: (known ? reason : 'Invalid') as StatusReason,
    code: REASON_CODES[reason] ?? 422,
    details: { ...s.details, causes: [...(s.details?.causes ?? []), { message }] },
  });
}

/** The CEL variables of a request as one matched kind sees it, and its namespace. */
interface Activation {
  request: Record<string, unknown>;
  namespaceObject: unknown;
}

export function ValidatingAdmissionPolicy(deps: PluginDeps): ServicePlugin {
  const policies = new CompileCache(compilePolicy);
  const bindings = new CompileCache(compileBinding);
  // Conversion webhooks of custom resources are dialled by service name (no address map here).
  const mapper = new ServedEquivalentResources(deps.listers);
  const matcher = new Matcher(deps.listers.namespaces, mapper);
  const log = deps.log.child({ plugin: pluginName });
  const labelNames = ['policy', 'policy_binding', 'error_type', 'enforcement_action'] as const;
  const checks = new Counter(
    withStability(
      {
        name: 'apiserver_validating_admission_policy_check_total',
        help: 'Validation admission policy check total, labeled by policy and further identified by binding and enforcement action taken.',
        labelNames,
        registers: [deps.registry],
      },
      { stabilityLevel: 'BETA' }
    )
  );
  const durations = new Histogram(
    withStability(
      {
        name: 'apiserver_validating_admission_policy_check_duration_seconds',
        help: 'Validation admission latency for individual validation expressions in seconds, labeled by policy and further including binding and enforcement action taken.',
        labelNames,
        buckets: [0.0000005, 0.001, 0.01, 0.1, 1.0],
        registers: [deps.registry],
      },
      { stabilityLevel: 'BETA' }
    )
  );

  /** Acts on one evaluation's failures per the binding's validationActions. */
  function act(
    policy: CompiledPolicy,
    binding: CompiledBinding,
    failures: readonly PolicyFailure[],
    ctx: AdmissionContext,
    out: Outcome
  ): string {
    const actions = binding.validationActions;
    let enforcement = 'allow';
    for (const f of failures) {
      if (actions.includes('Deny')) {
        out.denials.push({ policy: policy.name, binding: binding.name, failure: f });
        enforcement = 'deny';
      }
      if (actions.includes('Warn')) {
        ctx.warn(
          `Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${f.message}`
        );
        if (enforcement === 'allow') enforcement = 'warn';
      }
      if (actions.includes('Audit')) {
        out.audit.push({
          message: f.message,
          policy: policy.name,
          binding: binding.name,
          expressionIndex: f.expressionIndex,
          validationActions: [...actions],
        });
        if (enforcement === 'allow') enforcement = 'audit';
      }
    }
    return enforcement;
  }

  /** Runs `policy` for each of its matching bindings and their params. */
  async function dispatch(
    policy: CompiledPolicy,
    policyBindings: readonly CompiledBinding[],
    req: AdmissionRequest,
    ctx: AdmissionContext,
    out: Outcome,
    activation: (matched: MatchedResource) => Promise<Activation>
  ): Promise<void> {
    const configError = (err: unknown, binding?: string): void => {
      log.debug('policy configuration error', {
        policy: policy.name,
        binding,
        error: errText(err),
      });
      if (policy.failurePolicy === 'Ignore') return;
      const what = binding === undefined ? `policy ${policy.name}` : `binding ${binding}`;
      out.configErrors.push(`failed to configure ${what}: ${errText(err)}`);
    };
    // The resource and kind the policy matched the request as: its CEL sees the objects at that
    // kind's version (upstream's dispatcher converts to matchKind).
    let matched: MatchedResource | undefined;
    let matchedActivation: Activation;
    try {
      matched = policy.criteria && matcher.match(policy.criteria, req);
      if (!matched) return;
      matchedActivation = await activation(matched);
    } catch (err) {
      configError(err);
      return;
    }
    for (const binding of policyBindings) {
      let params: (ApiObject | null)[];
      try {
        if (binding.criteria && !matcher.matches(binding.criteria, req)) continue;
        params = await resolveParams(deps.listers, policy, binding, req);
      } catch (err) {
        configError(err, binding.name);
        continue;
      }
      const { request, namespaceObject } = matchedActivation;
      for (const param of params) {
        const start = performance.now();
        const failures = evaluatePolicy(policy, request, param, namespaceObject, ctx, log);
        const labels = {
          policy: policy.name,
          policy_binding: binding.name,
          error_type: failures.some((f) => f.isError) ? 'invalid_error' : 'no_error',
          enforcement_action: act(policy, binding, failures, ctx, out),
        };
        checks.inc(labels);
        durations.observe(labels, (performance.now() - start) / 1000);
      }
    }
  }

  return {
    name: pluginName,
    // Upstream handles CONNECT, CREATE, UPDATE and DELETE: every operation.
    handles(_operation: Operation) {
      return true;
    },
    async mayValidate(req) {
      const lister = await deps.listers.forResource(POLICY_GROUP, 'validatingadmissionpolicies');
      const policyObjects = lister.list();
      if (policyObjects.length === 0) return false;
      await matcher.prepare(req);
      // A policy whose criteria did not compile may still fail the request (failurePolicy).
      return policyObjects.some((po) => {
        const criteria = policies.get(po).criteria;
        return criteria === undefined || mayMatch(criteria, req, mapper);
      });
    },
    async validate(req, ctx) {
      const [policyLister, bindingLister] = await Promise.all([
        deps.listers.forResource(POLICY_GROUP, 'validatingadmissionpolicies'),
        deps.listers.forResource(POLICY_GROUP, 'validatingadmissionpolicybindings'),
      ]);
      const policyObjects = policyLister.list();
      if (policyObjects.length === 0) return;
      await matcher.prepare(req);
      const bindingObjects = bindingLister.list();
      policies.retain(policyObjects);
      bindings.retain(bindingObjects);
      const compiledBindings = bindingObjects.map((b) => bindings.get(b));

      // One activation per kind the policies matched the request as (mostly one).
      const cached = new Map<string, Promise<Activation>>();
      const activation = (matched: MatchedResource): Promise<Activation> => {
        const k = matched.kind;
        const key = `${k.group}/${k.version}/${k.kind} ${matched.resource.resource}`;
        let a = cached.get(key);
        if (!a) {
          const ns =
            req.namespace === '' ? undefined : deps.listers.namespaces.get('', req.namespace);
          a = versionedRequest(req, matched, mapper).then((versioned) => ({
            request: requestActivation(versioned, matched),
            namespaceObject: ns === undefined ? null : toCelValue(ns),
          }));
          cached.set(key, a);
        }
        return a;
      };
      const out: Outcome = { denials: [], audit: [], configErrors: [] };
      for (const po of policyObjects) {
        const policy = policies.get(po);
        const own = compiledBindings.filter((b) => b.policyName === policy.name);
        if (own.length > 0) await dispatch(policy, own, req, ctx, out, activation);
      }

      if (out.audit.length > 0)
        ctx.annotate(VALIDATION_FAILURE_ANNOTATION, JSON.stringify(out.audit));
      const first = out.denials[0];
      if (first) {
        const message = `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.failure.message}`;
        throw denial(req, message, first.failure.reason);
      }
      if (out.configErrors.length > 0) {
        throw newInternalError(new Error(out.configErrors.join(', ')));
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, ValidatingAdmissionPolicy);
}
