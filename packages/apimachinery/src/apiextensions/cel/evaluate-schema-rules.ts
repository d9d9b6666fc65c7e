// Runtime validation of a custom resource by its schema's x-kubernetes-validations
// (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go Validate): walks the object
// along the schema, runs each node's rules with `self` and, where the old object has a
// correlated value (same property, map key or list-map key), `oldSelf`; transition rules are
// skipped without one unless optionalOldSelf. Errors take the rule's message, messageExpression,
// reason and fieldPath; one evaluation may spend PER_CALL_LIMIT and all of them the budget.
import {
  CelCostError,
  CostBudget,
  PER_CALL_LIMIT_MESSAGE,
  RUNTIME_BUDGET_MESSAGE,
  RUNTIME_CEL_COST_BUDGET,
} from '../../cel/index.js';
import type { FieldError } from '../../errors/status-error.js';
import type { JSONSchemaProps, ValidationRule } from '../types.js';

import { optionalOf, toCelValueForSchema } from './cel-type-of.js';
import { compileSchemaRule } from './compile-schema-rule.js';
import { parseRuleFieldPath } from './rule-field-path.js';

const child = (p: string, name: string): string => (p ? `${p}.${name}` : name);
const keyed = (p: string, k: string | number): string => `${p}[${k}]`;

const ruleErrorString = (rule: ValidationRule): string =>
  rule.message && rule.message.length > 0 ? rule.message.trim() : (rule.rule ?? '').trim();
const ruleMessageOrDefault = (rule: ValidationRule): string =>
  rule.message && rule.message.length > 0
    ? rule.message.trim()
    : `failed rule: ${ruleErrorString(rule)}`;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

class Stop extends Error {}

interface State {
  readonly budget: CostBudget;
  readonly errors: FieldError[];
}

function fieldError(
  type: FieldError['type'],
  field: string,
  message: string,
  value?: unknown
): FieldError {
  return value === undefined ? { type, field, message } : { type, field, message, value };
}

function errorForReason(
  reason: string | undefined,
  path: string,
  value: unknown,
  detail: string
): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldError('FieldValueForbidden', path, detail);
    case 'FieldValueRequired':
      return fieldError('FieldValueRequired', path, detail);
    case 'FieldValueDuplicate':
      return fieldError('FieldValueDuplicate', path, '', value);
    default:
      return fieldError('FieldValueInvalid', path, detail, value);
  }
}

function runRules(
  schema: JSONSchemaProps,
  path: string,
  obj: unknown,
  oldObj: unknown,
  st: State
): void {
  const rules = schema['x-kubernetes-validations'] ?? [];
  if (rules.length === 0) return;
  const typeValue = schema.type ?? '';
  const printed = schema.type === 'object' || schema.type === 'array' ? typeValue : obj;
  let self: unknown;
  let oldSelf: unknown;
  let converted = false;
  for (const rule of rules) {
    const compiled = compileSchemaRule(schema, rule);
    if (!compiled.rule) {
      st.errors.push(
        fieldError(
          'FieldValueInvalid',
          path,
          `rule compile error: ${compiled.ruleError}`,
          typeValue
        )
      );
      continue;
    }
    const optional = rule.optionalOldSelf === true;
    if (compiled.usesOldSelf && oldObj === undefined && !optional) continue;
    if (!converted) {
      self = toCelValueForSchema(schema, obj);
      oldSelf = oldObj === undefined ? undefined : toCelValueForSchema(schema, oldObj);
      converted = true;
    }
    const activation = { self, oldSelf: optional ? optionalOf(oldSelf) : (oldSelf ?? null) };
    let result: unknown;
    try {
      result = compiled.rule.evaluate(activation, st.budget);
    } catch (err) {
      if (err instanceof CelCostError) {
        const msg =
          err.message === PER_CALL_LIMIT_MESSAGE
            ? `'${err.message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`
            : RUNTIME_BUDGET_MESSAGE;
        st.errors.push(fieldError('FieldValueInvalid', path, msg, typeValue));
        throw new Stop();
      }
      const m = err instanceof Error ? err.message : String(err);
      st.errors.push(
        fieldError(
          'FieldValueInvalid',
          path,
          `${m} evaluating rule: ${ruleErrorString(rule)}`,
          typeValue
        )
      );
      continue;
    }
    if (result === true) continue;
    let at = path;
    if (rule.fieldPath) {
      const fp = parseRuleFieldPath(rule.fieldPath, schema);
      for (const s of fp.steps ?? []) at = s.key ? keyed(at, s.name) : child(at, s.name);
    }
    let detail: string | undefined;
    if (compiled.messageExpression) {
      try {
        const m = compiled.messageExpression.evaluate(activation, st.budget);
        if (typeof m === 'string' && m.trim().length > 0 && !/[\n\r]/u.test(m)) detail = m;
      } catch (err) {
        if (err instanceof CelCostError) {
          const msg =
            err.message === PER_CALL_LIMIT_MESSAGE
              ? `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.messageExpression)}`
              : RUNTIME_BUDGET_MESSAGE;
          st.errors.push(fieldError('FieldValueInvalid', at, msg, typeValue));
          throw new Stop();
        }
      }
    }
    st.errors.push(errorForReason(rule.reason, at, printed, detail ?? ruleMessageOrDefault(rule)));
  }
}

function walk(
  schema: JSONSchemaProps,
  path: string,
  obj: unknown,
  oldObj: unknown,
  st: State
): void {
  if (obj === undefined || obj === null) return;
  runRules(schema, path, obj, oldObj, st);
  if (isObject(obj)) {
    const old = isObject(oldObj) ? oldObj : undefined;
    const props = schema.properties ?? {};
    const ap = schema.additionalProperties;
    for (const [k, v] of Object.entries(obj)) {
      const prop = props[k];
      if (prop) walk(prop, child(path, k), v, old?.[k], st);
      else if (ap !== undefined && typeof ap !== 'boolean')
        walk(ap, keyed(path, k), v, old?.[k], st);
    }
  } else if (Array.isArray(obj) && schema.items && !Array.isArray(schema.items)) {
    const items = schema.items;
    const keys =
      schema['x-kubernetes-list-type'] === 'map'
        ? (schema['x-kubernetes-list-map-keys'] ?? [])
        : undefined;
    const oldList = Array.isArray(oldObj) ? oldObj : [];
    const keyOf = (v: unknown): string | undefined =>
      isObject(v) && keys ? JSON.stringify(keys.map((k) => v[k])) : undefined;
    const oldByKey = new Map<string, unknown>();
    if (keys)
      for (const o of oldList) {
        const k = keyOf(o);
        if (k !== undefined) oldByKey.set(k, o);
      }
    obj.forEach((v, i) => {
      const k = keyOf(v);
      walk(items, keyed(path, i), v, k === undefined ? undefined : oldByKey.get(k), st);
    });
  }
}

/**
 * Runs the x-kubernetes-validations of `schema` on `obj` (with `oldObj` on update). Returns the
 * field errors (paths from the object's root, e.g. `spec.replicas`) and the budget left.
 */
export function evaluateSchemaRules(
  schema: JSONSchemaProps,
  obj: unknown,
  oldObj: unknown | undefined,
  opts: { budget?: number } = {}
): { errors: FieldError[]; remainingBudget: number } {
  const limit = opts.budget ?? RUNTIME_CEL_COST_BUDGET;
  const st: State = { budget: new CostBudget(limit, RUNTIME_BUDGET_MESSAGE), errors: [] };
  try {
    walk(schema, '', obj, oldObj, st);
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    return { errors: st.errors, remainingBudget: -1 };
  }
  return { errors: st.errors, remainingBudget: limit - st.budget.used };
}
