// The ValidatingAdmissionPolicy plugin (k8s.io/apiserver/pkg/admission/plugin/policy/validating:
// plugin.go, dispatcher.go, validator.go). Policies and bindings come from informer-backed
// listers and are compiled once per uid and resourceVersion. For each policy whose
// matchConstraints match, each of its bindings whose matchResources match, and each param the
// binding's paramRef selects, the policy's matchConditions, validations and auditAnnotations
// are evaluated with object, oldObject, request, params, namespaceObject and the lazily
// evaluated `variables`, sharing RUNTIME_CEL_COST_BUDGET; each expression has PER_CALL_LIMIT.
// A failed validation is acted on per the binding's validationActions (Deny, Warn, Audit); an
// error (compile, evaluation, cost, params) is judged by the policy's failurePolicy.
import { performance } from 'node:perf_hooks';

import type { CompiledExpression } from '@orch/apimachinery/cel';
import {
  CostBudget,
  fromCelValue,
  lazyMap,
  RUNTIME_BUDGET_MESSAGE,
  RUNTIME_CEL_COST_BUDGET,
  toCelValue,
} from '@orch/apimachinery/cel';
import type { StatusReason } from '@orch/apimachinery/errors';
import { newForbidden, newInternalError, StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { builtinResources } from '@orch/apimachinery/registry';
import { formatApiVersion } from '@orch/apimachinery/schema';
import { Counter, Histogram } from 'prom-client';

import type {
  AdmissionContext,
  AdmissionRequest,
  Operation,
  PluginDeps,
  ServicePlugin,
} from '../interfaces.js';
import { compileSelector, Matcher } from '../matching/index.js';

import { requestActivation } from './activation.js';
import type { CompiledBinding, CompiledPolicy, Expr } from './compiled-policy.js';
import { CompileCache, compileBinding, compilePolicy } from './compiled-policy.js';

export const POLICY_GROUP = 'admissionregistration.orch.io';
/** The audit annotation of failed validations with the Audit action. */
export const VALIDATION_FAILURE_ANNOTATION =
  'validation.policy.admission.orch.io/validation_failure';

const REASON_CODES: Record<string, number> = {
  Unauthorized: 401,
  Forbidden: 403,
  Invalid: 422,
  RequestEntityTooLarge: 413,
};

/** A failed validation or an error judged `Fail` (upstream PolicyDecision with ActionDeny). */
interface Failure {
  message: string;
  reason: string;
  expressionIndex: number;
  isError: boolean;
}

/** One entry of the validation_failure annotation (upstream validationFailureValue). */
interface AuditFailure {
  message: string;
  policy: string;
  binding: string;
  expressionIndex: number;
  validationActions: string[];
}

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

class ConfigError extends Error {}

export function ValidatingAdmissionPolicy(deps: PluginDeps): ServicePlugin {
  const policies = new CompileCache(compilePolicy);
  const bindings = new CompileCache(compileBinding);
  const matcher = new Matcher(deps.listers.namespaces);
  const log = deps.log.child({ plugin: 'ValidatingAdmissionPolicy' });
  const labelNames = ['policy', 'policy_binding', 'error_type', 'enforcement_action'] as const;
  const checks = new Counter({
    name: 'apiserver_validating_admission_policy_check_total',
    help: 'Validation admission policy check total, labeled by policy and further identified by binding and enforcement action taken.',
    labelNames,
    registers: [deps.registry],
  });
  const durations = new Histogram({
    name: 'apiserver_validating_admission_policy_check_duration_seconds',
    help: 'Validation admission latency for individual validation expressions in seconds, labeled by policy and further including binding and enforcement action taken.',
    labelNames,
    buckets: [0.0000005, 0.001, 0.01, 0.1, 1.0],
    registers: [deps.registry],
  });

  /** The params `binding` selects for `policy`: [null] without paramKind, [] to skip. */
  async function params(
    policy: CompiledPolicy,
    binding: CompiledBinding,
    req: AdmissionRequest
  ): Promise<(ApiObject | null)[]> {
    const pk = policy.paramKind;
    if (!pk) return [null];
    const ref = binding.paramRef;
    if (!ref) throw new ConfigError('paramRef is required when paramKind is set');
    const def = builtinResources.find(
      (d) => formatApiVersion(d) === pk.apiVersion && d.kind === pk.kind
    );
    if (!def) {
      throw new ConfigError(
        `failed to find resource referenced by paramKind: '${pk.apiVersion}, Kind=${pk.kind}'`
      );
    }
    const lister = await deps.listers.forResource(def.group, def.resource);
    let namespace = '';
    if (def.namespaced) {
      namespace = ref.namespace || req.namespace;
      if (namespace === '') {
        throw new ConfigError(
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
      if (sel.error)
        throw new ConfigError(`failed to parse paramRef selector: ${sel.error.message}`);
      found = lister
        .list(def.namespaced ? namespace : undefined)
        .filter((o) => sel.selector.matches(o.metadata.labels));
    }
    if (found.length === 0) {
      if (ref.parameterNotFoundAction === 'Deny') {
        throw new ConfigError(
          'no params found for policy binding with `Deny` parameterNotFoundAction'
        );
      }
      return [];
    }
    return found;
  }

  /** Evaluates one policy, binding and param; the failures its actions must handle. */
  function evaluate(
    policy: CompiledPolicy,
    base: Record<string, unknown>,
    param: ApiObject | null,
    namespaceObject: unknown,
    ctx: AdmissionContext
  ): Failure[] {
    const budget = new CostBudget(RUNTIME_CEL_COST_BUDGET, RUNTIME_BUDGET_MESSAGE);
    const activation: Record<string, unknown> = {
      ...base,
      namespaceObject,
      ...(policy.paramKind ? { params: param === null ? null : toCelValue(param) } : {}),
    };
    const failures: Failure[] = [];
    const fail = (message: string, index: number, reason = 'Invalid'): void => {
      if (policy.failurePolicy === 'Fail')
        failures.push({ message, reason, expressionIndex: index, isError: true });
    };
    const run = (e: Expr): unknown => {
      if (!e.compiled) throw new Error(`compilation error: ${e.error ?? ''}`);
      return (e.compiled as CompiledExpression).evaluate(activation, budget);
    };

    if (policy.matchConditions.size > 0) {
      const m = policy.matchConditions.evaluate(activation, budget);
      if (m.error !== undefined) {
        fail(m.error, -1);
        return failures;
      }
      if (!m.matches) return failures;
    }
    activation.variables = lazyMap(
      new Map(policy.variables.map((v) => [v.name, () => run(v.expr)] as const))
    );

    for (const v of policy.validations) {
      let ok: unknown;
      try {
        ok = run(v.expr);
      } catch (err) {
        if (err instanceof Error && err.message === RUNTIME_BUDGET_MESSAGE) {
          fail(RUNTIME_BUDGET_MESSAGE, v.index);
          break;
        }
        fail(`expression '${v.expr.expression}' resulted in error: ${errText(err)}`, v.index);
        continue;
      }
      if (ok === true) continue;
      if (ok !== false) {
        fail(`expression '${v.expr.expression}' did not evaluate to bool`, v.index);
        continue;
      }
      let message = v.message || `failed expression: ${v.expr.expression}`;
      if (v.messageExpression) {
        try {
          const m = run(v.messageExpression);
          if (typeof m === 'string' && m.trim() !== '' && !m.includes('\n')) message = m;
          else log.warn('messageExpression gave no usable message', { policy: policy.name });
        } catch (err) {
          log.warn('messageExpression failed', { policy: policy.name, error: errText(err) });
        }
      }
      failures.push({ message, reason: v.reason, expressionIndex: v.index, isError: false });
    }

    for (const a of policy.auditAnnotations) {
      try {
        const value = fromCelValue(run(a.expr));
        if (value === null || value === undefined) continue;
        ctx.annotate(`${policy.name}/${a.key}`, String(value));
      } catch (err) {
        fail(`expression '${a.expr.expression}' resulted in error: ${errText(err)}`, -1);
      }
    }
    return failures;
  }

  function denial(req: AdmissionRequest, message: string, reason: string): StatusError {
    const forbidden = newForbidden(
      { group: req.resource.group, resource: req.resource.resource },
      req.name,
      message
    );
    const code = REASON_CODES[reason] ?? 422;
    const s = forbidden.status;
    return new StatusError({
      ...s,
      reason: (REASON_CODES[reason] ? reason : 'Invalid') as StatusReason,
      code,
      details: { ...s.details, causes: [...(s.details?.causes ?? []), { message }] },
    });
  }

  return {
    name: 'ValidatingAdmissionPolicy',
    // Upstream handles CONNECT, CREATE, UPDATE and DELETE: every operation.
    handles(_operation: Operation) {
      return true;
    },
    async validate(req, ctx) {
      const [policyLister, bindingLister] = await Promise.all([
        deps.listers.forResource(POLICY_GROUP, 'validatingadmissionpolicies'),
        deps.listers.forResource(POLICY_GROUP, 'validatingadmissionpolicybindings'),
      ]);
      const policyObjects = policyLister.list();
      if (policyObjects.length === 0) return;
      const bindingObjects = bindingLister.list();
      policies.retain(policyObjects);
      bindings.retain(bindingObjects);
      const compiledBindings = bindingObjects.map((b) => bindings.get(b));

      let base: Record<string, unknown> | undefined;
      let namespaceObject: unknown;
      const denials: { policy: string; binding: string; failure: Failure }[] = [];
      const auditFailures: AuditFailure[] = [];
      const configErrors: string[] = [];

      for (const po of policyObjects) {
        const policy = policies.get(po);
        if (!policy.criteria) continue;
        const configError = (err: unknown, binding?: string): void => {
          const msg = errText(err);
          log.debug('policy configuration error', { policy: policy.name, binding, error: msg });
          if (policy.failurePolicy === 'Fail')
            configErrors.push(
              `failed to configure ${binding ? `binding ${binding}` : `policy ${policy.name}`}: ${msg}`
            );
        };
        try {
          if (!matcher.matches(policy.criteria, req)) continue;
        } catch (err) {
          configError(err);
          continue;
        }
        for (const binding of compiledBindings) {
          if (binding.policyName !== policy.name) continue;
          try {
            if (binding.criteria && !matcher.matches(binding.criteria, req)) continue;
          } catch (err) {
            configError(err, binding.name);
            continue;
          }
          let selected: (ApiObject | null)[];
          try {
            selected = await params(policy, binding, req);
          } catch (err) {
            configError(err, binding.name);
            continue;
          }
          if (base === undefined) {
            base = requestActivation(req);
            const ns =
              req.namespace === '' ? undefined : deps.listers.namespaces.get('', req.namespace);
            namespaceObject = ns === undefined ? null : toCelValue(ns);
          }
          for (const param of selected) {
            const start = performance.now();
            const failures = evaluate(policy, base, param, namespaceObject, ctx);
            const actions = binding.validationActions;
            let enforcement = 'allow';
            for (const f of failures) {
              if (actions.includes('Deny')) {
                denials.push({ policy: policy.name, binding: binding.name, failure: f });
                enforcement = 'deny';
              }
              if (actions.includes('Warn')) {
                ctx.warn(
                  `Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${f.message}`
                );
                if (enforcement === 'allow') enforcement = 'warn';
              }
              if (actions.includes('Audit')) {
                auditFailures.push({
                  message: f.message,
                  policy: policy.name,
                  binding: binding.name,
                  expressionIndex: f.expressionIndex,
                  validationActions: [...actions],
                });
                if (enforcement === 'allow') enforcement = 'audit';
              }
            }
            const labels = {
              policy: policy.name,
              policy_binding: binding.name,
              error_type: failures.some((f) => f.isError) ? 'invalid_error' : 'no_error',
              enforcement_action: enforcement,
            };
            checks.inc(labels);
            durations.observe(labels, (performance.now() - start) / 1000);
          }
        }
      }

      if (auditFailures.length > 0)
        ctx.annotate(VALIDATION_FAILURE_ANNOTATION, JSON.stringify(auditFailures));
      const first = denials[0];
      if (first) {
        throw denial(
          req,
          `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.failure.message}`,
          first.failure.reason
        );
      }
      if (configErrors.length > 0) throw newInternalError(new Error(configErrors.join(', ')));
    },
  };
}
