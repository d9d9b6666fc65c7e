// The compile check of one CEL expression of an admissionregistration object, as a field error
// for a 422 (k8s.io/kubernetes/pkg/apis/admissionregistration/validation compiles each
// matchCondition, validation, messageExpression, variable and auditAnnotation expression with
// the environment of its kind), and the variables each kind sees (k8s.io/apiserver/pkg/admission/
// plugin/cel). The structure around the expressions (names, counts, required fields) is the
// gateway's validation of those kinds, which calls this for each expression.
// `authorizer` and `authorizer.requestResource` are not declared: this server does not offer
// the authorizer library to expressions, so a reference to them is a compile error.
import type { FieldError } from '../errors/status-error.js';
import type { FieldPath } from '../errors/field-errors.js';
import { fieldInvalid } from '../errors/field-errors.js';

import type { CelVariable } from './compile-expression.js';
import { compileExpression } from './compile-expression.js';

/** The fields of `request` (AdmissionReview.request without uid), checked at compile time. */
export const ADMISSION_REQUEST_SCHEMA: Readonly<Record<string, unknown>> = {
  kind: { group: 'string', version: 'string', kind: 'string' },
  resource: { group: 'string', version: 'string', resource: 'string' },
  subResource: 'string',
  requestKind: { group: 'string', version: 'string', kind: 'string' },
  requestResource: { group: 'string', version: 'string', resource: 'string' },
  requestSubResource: 'string',
  name: 'string',
  namespace: 'string',
  operation: 'string',
  userInfo: {
    username: 'string',
    uid: 'string',
    groups: 'list<string>',
    extra: 'map<string, list<string>>',
  },
  dryRun: 'bool',
  options: 'dyn',
};

/** The variables of a webhook's matchConditions: object, oldObject, request. */
export const WEBHOOK_MATCH_CONDITION_VARIABLES: readonly CelVariable[] = [
  { name: 'object', type: 'dyn' },
  { name: 'oldObject', type: 'dyn' },
  { name: 'request', type: ADMISSION_REQUEST_SCHEMA },
];

/**
 * The variables of a ValidatingAdmissionPolicy's expressions: object, oldObject, request,
 * namespaceObject, params when the policy has a paramKind, and `variables` (a map of the
 * policy's spec.variables) except in matchConditions.
 */
export function policyVariables(hasParams: boolean, withVariables: boolean): CelVariable[] {
  const vars: CelVariable[] = [
    ...WEBHOOK_MATCH_CONDITION_VARIABLES,
    { name: 'namespaceObject', type: 'dyn' },
  ];
  if (hasParams) vars.push({ name: 'params', type: 'dyn' });
  if (withVariables) vars.push({ name: 'variables', type: 'map<string, dyn>' });
  return vars;
}

const VARIABLE_REFERENCE = /\bvariables\s*\.\s*([_a-zA-Z][_a-zA-Z0-9]*)/gu;

/** What an expression is: each kind has its own variables and result type. */
export type AdmissionExpressionKind =
  | 'webhookMatchCondition'
  | 'policyMatchCondition'
  | 'validation'
  | 'messageExpression'
  | 'variable'
  | 'auditAnnotation';

export interface AdmissionExpressionContext {
  kind: AdmissionExpressionKind;
  /** The policy declares a paramKind: `params` is available. */
  hasParams: boolean;
  /** The policy's variables this expression may use (`variables.<name>`): those before it. */
  variables: readonly string[];
  /** The same expression is already stored in the old object (an update). */
  preexisting: boolean;
}

const resultTypes: Record<AdmissionExpressionKind, readonly string[]> = {
  webhookMatchCondition: ['bool'],
  policyMatchCondition: ['bool'],
  validation: ['bool'],
  messageExpression: ['string'],
  variable: [],
  auditAnnotation: ['string', 'null_type'],
};

/**
 * Compiles one expression in the environment of its kind; its error as `Invalid` at `path`.
 * An expression already stored is not compiled again: upstream compiles stored expressions in a
 * lenient environment so that an upgrade never makes a stored object invalid; here the one
 * environment is that of the current release, and a stored expression is left as it is.
 */
export function checkAdmissionExpression(
  expression: string,
  ctx: AdmissionExpressionContext,
  path: FieldPath
): FieldError[] {
  if (ctx.preexisting) return [];
  const matchCondition =
    ctx.kind === 'webhookMatchCondition' || ctx.kind === 'policyMatchCondition';
  const variables =
    ctx.kind === 'webhookMatchCondition'
      ? WEBHOOK_MATCH_CONDITION_VARIABLES
      : policyVariables(ctx.hasParams, !matchCondition);
  const r = compileExpression(expression, variables, resultTypes[ctx.kind]);
  if (r.error !== undefined) return [fieldInvalid(path, expression, r.error)];
  if (!matchCondition) {
    const declared = new Set(ctx.variables);
    for (const m of expression.matchAll(VARIABLE_REFERENCE)) {
      const name = m[1] ?? '';
      if (!declared.has(name)) {
        return [
          fieldInvalid(
            path,
            expression,
            `compilation failed: ERROR: <input>:1:${(m.index ?? 0) + 1}: undefined field '${name}'`
          ),
        ];
      }
    }
  }
  return [];
}
