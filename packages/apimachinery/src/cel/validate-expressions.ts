// Compile-time checks of the CEL expressions in admissionregistration objects, as field errors
// for a 422 (k8s.io/kubernetes/pkg/apis/admissionregistration/validation: validateMatchConditions,
// validateValidation, validateVariable, validateAuditAnnotation, validateMessageExpression),
// and the variables each kind of expression sees (k8s.io/apiserver/pkg/admission/plugin/cel).
// `authorizer` and `authorizer.requestResource` are not declared: this server does not offer
// the authorizer library to expressions, so a reference to them is a compile error.
import type { FieldError } from '../errors/status-error.js';
import type { FieldPath } from '../errors/field-errors.js';
import {
  fieldDuplicate,
  fieldInvalid,
  fieldRequired,
  fieldTooMany,
} from '../errors/field-errors.js';
import { isQualifiedName } from '../meta/name-validation.js';

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

/** Upstream's limit on matchConditions per webhook or policy. */
export const MAX_MATCH_CONDITIONS = 64;

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

const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/u;
const VARIABLE_REFERENCE = /\bvariables\s*\.\s*([_a-zA-Z][_a-zA-Z0-9]*)/gu;

type Obj = Record<string, unknown>;
const asList = (v: unknown): Obj[] =>
  Array.isArray(v) ? v.map((x) => (x !== null && typeof x === 'object' ? (x as Obj) : {})) : [];
const asString = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Compiles one expression; its error (or that of a `variables.x` not yet declared) if any. */
function checkExpression(
  path: FieldPath,
  expression: unknown,
  variables: readonly CelVariable[],
  expected: readonly string[],
  declared: ReadonlySet<string> | undefined,
  required = true
): FieldError[] {
  if (typeof expression !== 'string' || expression.trim() === '') {
    return required ? [fieldRequired(path, '')] : [];
  }
  const r = compileExpression(expression, variables, expected);
  if (r.error !== undefined) return [fieldInvalid(path, expression, r.error)];
  if (declared) {
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

/**
 * The matchConditions of a webhook or policy: at most 64, names required, qualified and
 * unique, expressions required and compiling to bool against `variables`.
 */
export function validateMatchConditions(
  conditions: unknown,
  path: FieldPath,
  variables: readonly CelVariable[] = WEBHOOK_MATCH_CONDITION_VARIABLES
): FieldError[] {
  const errs: FieldError[] = [];
  const list = asList(conditions);
  if (list.length > MAX_MATCH_CONDITIONS)
    errs.push(fieldTooMany(path, list.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  list.forEach((c, i) => {
    const p = path.index(i);
    const name = asString(c.name);
    if (name === '') errs.push(fieldRequired(p.child('name'), ''));
    else {
      const msgs = isQualifiedName(name);
      if (msgs.length > 0) errs.push(fieldInvalid(p.child('name'), name, msgs.join('; ')));
      else if (names.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
      names.add(name);
    }
    errs.push(
      ...checkExpression(p.child('expression'), c.expression, variables, ['bool'], undefined)
    );
  });
  return errs;
}

/**
 * The CEL of a ValidatingAdmissionPolicy's spec (at `path`, `spec`): variables (names CEL
 * identifiers, unique; each expression may use the variables before it), validations'
 * expression (bool) and messageExpression (string), auditAnnotations' valueExpression
 * (string), and matchConditions.
 */
export function validatePolicyExpressions(spec: unknown, path: FieldPath): FieldError[] {
  const s = spec !== null && typeof spec === 'object' ? (spec as Obj) : {};
  const hasParams = s.paramKind !== undefined && s.paramKind !== null;
  const errs: FieldError[] = [];
  const withVars = policyVariables(hasParams, true);

  const declared = new Set<string>();
  asList(s.variables).forEach((v, i) => {
    const p = path.child('variables').index(i);
    const name = asString(v.name);
    if (name === '') errs.push(fieldRequired(p.child('name'), ''));
    else if (!CEL_IDENTIFIER.test(name))
      errs.push(fieldInvalid(p.child('name'), name, 'name is not a valid CEL identifier'));
    else if (declared.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
    errs.push(...checkExpression(p.child('expression'), v.expression, withVars, [], declared));
    if (name !== '') declared.add(name);
  });

  asList(s.validations).forEach((v, i) => {
    const p = path.child('validations').index(i);
    errs.push(
      ...checkExpression(p.child('expression'), v.expression, withVars, ['bool'], declared)
    );
    errs.push(
      ...checkExpression(
        p.child('messageExpression'),
        v.messageExpression,
        withVars,
        ['string'],
        declared,
        false
      )
    );
  });

  asList(s.auditAnnotations).forEach((a, i) => {
    const p = path.child('auditAnnotations').index(i);
    errs.push(
      ...checkExpression(
        p.child('valueExpression'),
        a.valueExpression,
        withVars,
        ['string', 'null_type'],
        declared
      )
    );
  });

  if (s.matchConditions !== undefined && s.matchConditions !== null) {
    errs.push(
      ...validateMatchConditions(
        s.matchConditions,
        path.child('matchConditions'),
        policyVariables(hasParams, false)
      )
    );
  }
  return errs;
}
