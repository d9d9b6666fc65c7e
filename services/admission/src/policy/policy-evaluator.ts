// One evaluation of a policy for a binding and a param (upstream validating/validator.go
// Validate): matchConditions, then validations with message, messageExpression and reason,
// then auditAnnotations, all sharing one RUNTIME_CEL_COST_BUDGET; `variables` are evaluated
// lazily, once. Failed validations and, under failurePolicy Fail, errors come back as
// failures for the binding's validationActions.
import {
  CostBudget,
  fromCelValue,
  lazyMap,
  RUNTIME_BUDGET_MESSAGE,
  RUNTIME_CEL_COST_BUDGET,
  toCelValue,
} from '@orch/apimachinery/cel';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Logger } from '@orch/component-base/logs';

import type { AdmissionContext } from '../interfaces.js';

import type { CompiledPolicy, CompiledValidation, Expr } from './compiled-policy.js';

/** A failed validation, or an error judged `Fail` (upstream PolicyDecision with ActionDeny). */
export interface PolicyFailure {
  message: string;
  reason: string;
  /** The validation's index; -1 for matchConditions and auditAnnotations. */
  expressionIndex: number;
  isError: boolean;
}

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export function evaluatePolicy(
  policy: CompiledPolicy,
  request: Readonly<Record<string, unknown>>,
  param: ApiObject | null,
  namespaceObject: unknown,
  ctx: AdmissionContext,
  log: Logger
): PolicyFailure[] {
  const budget = new CostBudget(RUNTIME_CEL_COST_BUDGET, RUNTIME_BUDGET_MESSAGE);
  const activation: Record<string, unknown> = { ...request, namespaceObject };
  if (policy.paramKind) activation.params = param === null ? null : toCelValue(param);
  const run = (e: Expr): unknown => {
    if (!e.compiled) throw new Error(`compilation error: ${e.error ?? ''}`);
    return e.compiled.evaluate(activation, budget);
  };
  const failures: PolicyFailure[] = [];
  const fail = (message: string, index: number): void => {
    if (policy.failurePolicy === 'Fail') {
      failures.push({ message, reason: 'Invalid', expressionIndex: index, isError: true });
    }
  };

  if (policy.matchConditions.size > 0) {
    const m = policy.matchConditions.evaluate(activation, budget);
    if (m.error !== undefined) fail(m.error, -1);
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
      if (errText(err) === RUNTIME_BUDGET_MESSAGE) {
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
    failures.push({
      message: failureMessage(v, run, policy.name, log),
      reason: v.reason,
      expressionIndex: v.index,
      isError: false,
    });
  }

  for (const a of policy.auditAnnotations) {
    try {
      const value = fromCelValue(run(a.expr));
      if (value !== null && value !== undefined)
        ctx.annotate(`${policy.name}/${a.key}`, String(value));
    } catch (err) {
      fail(`expression '${a.expr.expression}' resulted in error: ${errText(err)}`, -1);
    }
  }
  return failures;
}

/**
 * The message of a failed validation: messageExpression's result when it is a non-empty
 * single line, else `message`, else `failed expression: <expression>` (upstream).
 */
function failureMessage(
  v: CompiledValidation,
  run: (e: Expr) => unknown,
  policy: string,
  log: Logger
): string {
  const fallback = v.message || `failed expression: ${v.expr.expression}`;
  if (!v.messageExpression) return fallback;
  try {
    const m = run(v.messageExpression);
    if (typeof m === 'string' && m.trim() !== '' && !m.includes('\n')) return m;
    log.warn('messageExpression gave no usable message', { policy, index: v.index });
  } catch (err) {
    log.warn('messageExpression failed', { policy, index: v.index, error: errText(err) });
  }
  return fallback;
}
