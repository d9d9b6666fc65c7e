// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding validation, as k8s
// pkg/apis/admissionregistration/validation (validateValidatingAdmissionPolicySpec,
// validateParamKind, validateValidation, validateVariable, validateAuditAnnotation,
// validateValidatingAdmissionPolicyStatus, validateValidatingAdmissionPolicyBindingSpec,
// validateParamRef, validateValidationActions).
import {
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidPathSegmentName,
  sameJson,
} from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';
import { validateLabelSelector } from './validate-label-selector.js';
import {
  checkExpression,
  isObject,
  list,
  strings,
  supportedFailurePolicies,
  text,
  validateMatchConditions,
  validateMatchResources,
} from './validate-rules.js';
import type { ExpressionOptions, Json } from './validate-rules.js';
import { isDNS1035Label } from './validate-webhook-configuration.js';
import { celReservedWords } from '@orch/apimachinery/cel';

export const supportedValidationReasons = [
  'Forbidden',
  'Invalid',
  'RequestEntityTooLarge',
  'Unauthorized',
] as const;
export const supportedValidationActions = ['Audit', 'Deny', 'Warn'] as const;
export const maxAuditAnnotations = 20;
export const maxAuditAnnotationValueExpressionLength = 5 * 1024;

export interface PolicyValidationOptions extends ExpressionOptions {
  /** Update with the same matchConditions and paramKind: they are not validated again. */
  ignoreMatchConditions?: boolean;
}

const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/** Whether a name is a CEL identifier that is not a reserved word. */
export const isCELIdentifier = (name: string): boolean =>
  celIdentifier.test(name) && !celReservedWords.has(name);

const hasNewlines = (s: string): boolean => /[\r\n]/.test(s);

/** schema.ParseGroupVersion. */
function parseGroupVersion(gv: string): { group: string; version: string } | string {
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return `unexpected GroupVersion string: ${gv}`;
}

export function validateParamKind(pk: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = text(pk['apiVersion']);
  const p = path.child('apiVersion');
  if (apiVersion === '') errs.push(fieldRequired(p, ''));
  else {
    const gv = parseGroupVersion(apiVersion);
    if (typeof gv === 'string') errs.push(fieldInvalid(p, apiVersion, gv));
    else {
      if (gv.group !== '') {
        const e = isDNS1123Subdomain(gv.group);
        if (e.length > 0) errs.push(fieldInvalid(p, gv.group, e.join(',')));
      }
      if (gv.version === '') errs.push(fieldInvalid(p, apiVersion, 'version must be specified'));
      else {
        const e = isDNS1035Label(gv.version);
        if (e.length > 0) errs.push(fieldInvalid(p, gv.version, e.join(',')));
      }
    }
  }
  const kind = text(pk['kind']);
  if (kind === '') errs.push(fieldRequired(path.child('kind'), ''));
  else {
    const e = isDNS1035Label(kind.toLowerCase());
    if (e.length > 0)
      errs.push(
        fieldInvalid(
          path.child('kind'),
          kind,
          `may have mixed case, but should otherwise match: ${e.join(',')}`
        )
      );
  }
  return errs;
}

interface SpecContext {
  hasParams: boolean;
  variables: readonly string[];
}

function validateValidation(
  v: Json,
  ctx: SpecContext,
  opts: ExpressionOptions,
  path: FieldPath
): FieldError[] {
  const errs: FieldError[] = [];
  const expression = text(v['expression']).trim();
  if (expression === '')
    errs.push(fieldRequired(path.child('expression'), 'expression is not specified'));
  else
    errs.push(
      ...checkExpression(opts, expression, { kind: 'validation', ...ctx }, path.child('expression'))
    );
  const rawME = text(v['messageExpression']);
  const me = rawME.trim();
  if (rawME !== '' && me === '')
    errs.push(
      fieldInvalid(path.child('messageExpression'), rawME, 'must be non-empty if specified')
    );
  else if (me !== '')
    errs.push(
      ...checkExpression(
        opts,
        me,
        { kind: 'messageExpression', ...ctx },
        path.child('messageExpression')
      )
    );
  const reason = v['reason'];
  if (reason !== undefined && !(supportedValidationReasons as readonly unknown[]).includes(reason))
    errs.push(fieldNotSupported(path.child('reason'), reason, supportedValidationReasons));
  const rawMsg = text(v['message']);
  const msg = rawMsg.trim();
  if (rawMsg !== '' && msg === '')
    errs.push(
      fieldInvalid(path.child('message'), rawMsg, 'message must be non-empty if specified')
    );
  else if (hasNewlines(msg))
    errs.push(fieldInvalid(path.child('message'), rawMsg, 'message must not contain line breaks'));
  return errs;
}

function validateVariable(
  v: Json,
  ctx: SpecContext,
  opts: ExpressionOptions,
  path: FieldPath
): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(v['name']);
  if (name.trim() === '') errs.push(fieldRequired(path.child('name'), 'name is not specified'));
  else if (!isCELIdentifier(name))
    errs.push(fieldInvalid(path.child('name'), name, 'name is not a valid CEL identifier'));
  const expression = text(v['expression']).trim();
  if (expression === '')
    errs.push(fieldRequired(path.child('expression'), 'expression is not specified'));
  else
    errs.push(
      ...checkExpression(opts, expression, { kind: 'variable', ...ctx }, path.child('expression'))
    );
  return errs;
}

function validateAuditAnnotation(
  policyName: string,
  a: Json,
  ctx: SpecContext,
  opts: ExpressionOptions,
  path: FieldPath
): FieldError[] {
  const errs: FieldError[] = [];
  const key = text(a['key']);
  if (policyName !== '') {
    const full = `${policyName}/${key}`;
    for (const msg of isQualifiedName(full)) errs.push(fieldInvalid(path.child('key'), full, msg));
  } else errs.push(fieldInvalid(path.child('key'), key, 'requires metadata.name be non-empty'));
  const ve = text(a['valueExpression']).trim();
  const p = path.child('valueExpression');
  if (ve === '') errs.push(fieldRequired(p, 'valueExpression is not specified'));
  else if (Buffer.byteLength(ve) > maxAuditAnnotationValueExpressionLength)
    errs.push(
      fieldRequired(p, `must not exceed ${maxAuditAnnotationValueExpressionLength} bytes in length`)
    );
  else errs.push(...checkExpression(opts, ve, { kind: 'auditAnnotation', ...ctx }, p));
  return errs;
}

export function validateValidatingAdmissionPolicy(
  obj: ApiObject,
  opts: PolicyValidationOptions = {}
): FieldError[] {
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  const path = newPath('spec');
  const errs: FieldError[] = [];
  const fp = spec['failurePolicy'];
  if (fp === undefined || fp === null) errs.push(fieldRequired(path.child('failurePolicy'), ''));
  else if (!(supportedFailurePolicies as readonly unknown[]).includes(fp))
    errs.push(fieldNotSupported(path.child('failurePolicy'), fp, supportedFailurePolicies));
  const hasParams = isObject(spec['paramKind']);
  if (hasParams)
    errs.push(...validateParamKind(spec['paramKind'] as Json, path.child('paramKind')));
  const mc = spec['matchConstraints'];
  if (!isObject(mc)) errs.push(fieldRequired(path.child('matchConstraints'), ''));
  else {
    errs.push(...validateMatchResources(mc, path.child('matchConstraints')));
    if (list(mc['resourceRules']).length === 0)
      errs.push(fieldRequired(path.child('matchConstraints', 'resourceRules'), ''));
  }
  const variables = list(spec['variables']).filter(isObject);
  const ctx: SpecContext = {
    hasParams,
    variables: variables.map((v) => text(v['name'])).filter((n) => n !== ''),
  };
  if (!opts.ignoreMatchConditions)
    errs.push(
      ...validateMatchConditions(
        spec['matchConditions'],
        'policyMatchCondition',
        ctx,
        opts,
        path.child('matchConditions')
      )
    );
  const seenVariables = new Set<string>();
  list(spec['variables']).forEach((v, i) => {
    const p = path.child('variables').index(i);
    const variable = isObject(v) ? v : {};
    // Each variable sees only the variables before it (upstream composes them in order).
    const before = { ...ctx, variables: [...seenVariables] };
    errs.push(...validateVariable(variable, before, opts, p));
    const name = text(variable['name']);
    if (name !== '') {
      if (seenVariables.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
      seenVariables.add(name);
    }
  });
  const validations = list(spec['validations']);
  const annotations = list(spec['auditAnnotations']);
  if (validations.length === 0 && annotations.length === 0) {
    const msg = 'validations or auditAnnotations must contain at least one item';
    errs.push(fieldRequired(path.child('validations'), msg));
    errs.push(fieldRequired(path.child('auditAnnotations'), msg));
  } else {
    validations.forEach((v, i) => {
      errs.push(
        ...validateValidation(isObject(v) ? v : {}, ctx, opts, path.child('validations').index(i))
      );
    });
    if (annotations.length > maxAuditAnnotations)
      errs.push(
        fieldInvalid(
          path.child('auditAnnotations'),
          annotations,
          `must not have more than ${maxAuditAnnotations} auditAnnotations`
        )
      );
    const keys = new Set<string>();
    const policyName = text(obj.metadata.name);
    annotations.forEach((a, i) => {
      const p = path.child('auditAnnotations').index(i);
      const annotation = isObject(a) ? a : {};
      errs.push(...validateAuditAnnotation(policyName, annotation, ctx, opts, p));
      const key = text(annotation['key']);
      if (keys.has(key)) errs.push(fieldDuplicate(p.child('key'), key));
      keys.add(key);
    });
  }
  return errs;
}

/** Every expression of a stored policy (for the lenient compile of unchanged expressions). */
function policyExpressions(obj: ApiObject): Set<string> {
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  const out = new Set<string>();
  const add = (items: unknown, ...keys: string[]): void => {
    for (const item of list(items))
      if (isObject(item)) for (const k of keys) out.add(text(item[k]).trim());
  };
  add(spec['matchConditions'], 'expression');
  add(spec['variables'], 'expression');
  add(spec['validations'], 'expression', 'messageExpression');
  add(spec['auditAnnotations'], 'valueExpression');
  out.delete('');
  return out;
}

export function validateValidatingAdmissionPolicyUpdate(
  obj: ApiObject,
  old: ApiObject,
  expr: ExpressionOptions = {}
): FieldError[] {
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  const oldSpec = isObject(old['spec']) ? old['spec'] : {};
  return validateValidatingAdmissionPolicy(obj, {
    ...expr,
    ignoreMatchConditions:
      sameJson(spec['matchConditions'], oldSpec['matchConditions']) &&
      sameJson(spec['paramKind'], oldSpec['paramKind']),
    preexistingExpressions: policyExpressions(old),
  });
}

/** validateValidatingAdmissionPolicyStatus: type checking warnings and conditions. */
export function validateValidatingAdmissionPolicyStatus(obj: ApiObject): FieldError[] {
  const status = isObject(obj['status']) ? obj['status'] : {};
  const path = newPath('status');
  const errs: FieldError[] = [];
  const tc = status['typeChecking'];
  if (isObject(tc))
    list(tc['expressionWarnings']).forEach((w, i) => {
      const p = path.child('typeChecking', 'expressionWarnings').index(i);
      const ew = isObject(w) ? w : {};
      if (text(ew['warning']) === '') errs.push(fieldRequired(p.child('warning'), ''));
      if (text(ew['fieldRef']).trim() === '') errs.push(fieldRequired(p.child('fieldRef'), ''));
    });
  const types = new Set<string>();
  list(status['conditions']).forEach((c, i) => {
    const p = path.child('conditions').index(i);
    const cond = isObject(c) ? c : {};
    const type = text(cond['type']);
    if (type === '') errs.push(fieldRequired(p.child('type'), 'must be set'));
    else {
      for (const msg of isQualifiedName(type)) errs.push(fieldInvalid(p.child('type'), type, msg));
      if (types.has(type)) errs.push(fieldDuplicate(p.child('type'), type));
      types.add(type);
    }
    const st = cond['status'];
    if (!['True', 'False', 'Unknown'].includes(text(st)))
      errs.push(fieldNotSupported(p.child('status'), st, ['False', 'True', 'Unknown']));
  });
  return errs;
}

function validateParamRef(pr: unknown, path: FieldPath): FieldError[] {
  if (!isObject(pr)) return [];
  const errs: FieldError[] = [];
  const name = text(pr['name']);
  const hasSelector = isObject(pr['selector']);
  if (name !== '') {
    for (const msg of isValidPathSegmentName(name))
      errs.push(fieldInvalid(path.child('name'), name, msg));
    if (hasSelector)
      errs.push(fieldForbidden(path.child('name'), 'name and selector are mutually exclusive'));
  }
  const namespace = text(pr['namespace']);
  if (namespace !== '')
    for (const msg of isDNS1123Label(namespace))
      errs.push(fieldInvalid(path.child('namespace'), namespace, msg));
  if (hasSelector) {
    errs.push(...validateLabelSelector(pr['selector'], {}, path.child('selector')));
    if (name !== '')
      errs.push(fieldForbidden(path.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (name === '' && !hasSelector)
    errs.push(fieldRequired(path, 'one of name or selector must be specified'));
  const action = pr['parameterNotFoundAction'];
  if (action === undefined || action === null || action === '')
    errs.push(fieldRequired(path.child('parameterNotFoundAction'), ''));
  else if (action !== 'Deny' && action !== 'Allow')
    errs.push(fieldNotSupported(path.child('parameterNotFoundAction'), action, ['Deny', 'Allow']));
  return errs;
}

function validateValidationActions(actions: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const va = strings(actions);
  va.forEach((a, i) => {
    if (!(supportedValidationActions as readonly string[]).includes(a))
      errs.push(fieldNotSupported(path.index(i), a, supportedValidationActions));
    if (seen.has(a)) errs.push(fieldDuplicate(path.index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn'))
    errs.push(
      fieldInvalid(
        path,
        va,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'
      )
    );
  if (seen.size === 0) errs.push(fieldRequired(path, 'at least one validation action is required'));
  return errs;
}

export function validateValidatingAdmissionPolicyBinding(obj: ApiObject): FieldError[] {
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  const path = newPath('spec');
  const errs: FieldError[] = [];
  const policyName = text(spec['policyName']);
  if (policyName === '') errs.push(fieldRequired(path.child('policyName'), ''));
  else
    for (const msg of isDNS1123Subdomain(policyName))
      errs.push(fieldInvalid(path.child('policyName'), policyName, msg));
  errs.push(...validateParamRef(spec['paramRef'], path.child('paramRef')));
  errs.push(...validateMatchResources(spec['matchResources'], path.child('matchResources')));
  errs.push(
    ...validateValidationActions(spec['validationActions'], path.child('validationActions'))
  );
  return errs;
}
