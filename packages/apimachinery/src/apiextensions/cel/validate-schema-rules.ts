// The checks of a CRD schema's x-kubernetes-validations when the CRD is written
// (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go, the
// x-kubernetes-validations part of ValidateCustomResourceDefinitionOpenAPISchema and
// getCostErrorMessage; pkg/apiserver/schema/cel/compilation.go Compile): the form of each rule
// (rule, message, messageExpression, reason, fieldPath, optionalOldSelf), its compilation
// against the type of its node (`oldSelf` only where values correlate), and its estimated cost
// against the per-rule limit and, summed, against the per-CRD limit.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
} from '../../errors/field-errors.js';
import type { FieldPath } from '../../errors/field-errors.js';
import type { FieldError } from '../../errors/status-error.js';
import type { JSONSchemaProps, ValidationRule } from '../types.js';

import { compileSchemaRule, usesOldSelf } from './compile-schema-rule.js';
import { parseRuleFieldPath } from './rule-field-path.js';
import { childCardinality } from './schema-sizes.js';

/** The largest estimated cost of one rule (StaticEstimatedCostLimit). */
export const STATIC_ESTIMATED_RULE_COST_LIMIT = 10_000_000;
/** The largest estimated cost of all rules of one schema (StaticEstimatedCRDCostLimit). */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

/** The reasons a rule may give (supportedValidationReason). */
export const SUPPORTED_RULE_REASONS = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
] as const;

/** Go's %f: six decimals. */
const goFloat = (n: number): string => n.toFixed(6);

/** Upstream getCostErrorMessage. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const f =
    factor > 100
      ? 'more than 100x'
      : factor < 1.5
        ? `${goFloat(factor)}x`
        : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${f} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

const hasNewlines = (s: string): boolean => /[\n\r]/u.test(s);

interface Walk {
  total: number;
  /** Each rule's or messageExpression's path and cost, for the most expensive on refusal. */
  observed: { path: string; cost: number }[];
  errors: FieldError[];
}

/** The form checks of one rule (no compilation). */
function checkRuleForm(
  schema: JSONSchemaProps,
  rule: ValidationRule,
  rulePath: FieldPath
): FieldError[] {
  const errs: FieldError[] = [];
  const trimmedRule = (rule.rule ?? '').trim();
  const trimmedMsg = (rule.message ?? '').trim();
  if (trimmedRule.length === 0) {
    errs.push(fieldRequired(rulePath.child('rule'), 'rule is not specified'));
  }
  if (rule.message !== undefined && rule.message.length > 0 && trimmedMsg.length === 0) {
    errs.push(
      fieldInvalid(rulePath.child('message'), rule.message, 'must be non-empty if specified')
    );
  } else if (hasNewlines(rule.message ?? '')) {
    errs.push(
      fieldInvalid(rulePath.child('message'), rule.message, 'must not contain line breaks')
    );
  } else if (hasNewlines(rule.rule ?? '') && trimmedMsg.length === 0) {
    errs.push(
      fieldRequired(
        rulePath.child('message'),
        'message must be specified if rule contains line breaks'
      )
    );
  }
  if (rule.messageExpression !== undefined && rule.messageExpression.length > 0) {
    if (rule.messageExpression.trim().length === 0) {
      errs.push(
        fieldRequired(
          rulePath.child('messageExpression'),
          'messageExpression must be non-empty if specified'
        )
      );
    }
  }
  if (
    rule.reason !== undefined &&
    !(SUPPORTED_RULE_REASONS as readonly string[]).includes(rule.reason)
  ) {
    errs.push(
      fieldNotSupported(rulePath.child('reason'), rule.reason, [...SUPPORTED_RULE_REASONS])
    );
  }
  if (rule.fieldPath !== undefined && rule.fieldPath.length > 0) {
    if (rule.fieldPath.trim().length === 0) {
      errs.push(
        fieldInvalid(rulePath.child('fieldPath'), rule.fieldPath, 'must be non-empty if specified')
      );
    } else if (hasNewlines(rule.fieldPath)) {
      errs.push(
        fieldInvalid(rulePath.child('fieldPath'), rule.fieldPath, 'must not contain line breaks')
      );
    } else if (parseRuleFieldPath(rule.fieldPath, schema).error !== undefined) {
      errs.push(fieldInvalid(rulePath.child('fieldPath'), rule.fieldPath, 'must be a valid path'));
    }
  }
  return errs;
}

function walk(
  schema: JSONSchemaProps,
  path: FieldPath,
  cardinality: number,
  uncorrelatable: FieldPath | undefined,
  w: Walk
): void {
  const rules = schema['x-kubernetes-validations'] ?? [];
  rules.forEach((rule, i) => {
    const rulePath = path.child('x-kubernetes-validations').index(i);
    const formErrors = checkRuleForm(schema, rule, rulePath);
    w.errors.push(...formErrors);
    if (formErrors.length > 0) return;
    const compiled = compileSchemaRule(schema, rule);
    if (compiled.ruleError !== undefined) {
      w.errors.push(fieldInvalid(rulePath.child('rule'), rule.rule, compiled.ruleError));
    } else {
      const cost = Math.min(Number.MAX_SAFE_INTEGER, (compiled.ruleCost ?? 0) * cardinality);
      if (cost > STATIC_ESTIMATED_RULE_COST_LIMIT) {
        w.errors.push(
          fieldForbidden(
            rulePath.child('rule'),
            costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_RULE_COST_LIMIT)
          )
        );
      }
      w.total += cost;
      w.observed.push({ path: rulePath.child('rule').toString(), cost });
    }
    if (compiled.messageExpressionError !== undefined) {
      w.errors.push(
        fieldInvalid(
          rulePath.child('messageExpression'),
          rule.messageExpression,
          compiled.messageExpressionError
        )
      );
    } else if (compiled.messageExpressionCost !== undefined) {
      const cost = compiled.messageExpressionCost;
      if (cost > STATIC_ESTIMATED_RULE_COST_LIMIT) {
        w.errors.push(
          fieldForbidden(
            rulePath.child('messageExpression'),
            costErrorMessage(
              'estimated messageExpression cost',
              cost,
              STATIC_ESTIMATED_RULE_COST_LIMIT
            )
          )
        );
      }
      w.total += cost;
      w.observed.push({ path: rulePath.child('messageExpression').toString(), cost });
    }
    if (compiled.ruleError === undefined) {
      if (usesOldSelf(rule.rule)) {
        if (uncorrelatable) {
          w.errors.push(
            fieldInvalid(
              rulePath.child('rule'),
              rule.rule,
              `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable.toString()}`
            )
          );
        }
      } else if (rule.optionalOldSelf !== undefined) {
        w.errors.push(
          fieldInvalid(
            rulePath.child('optionalOldSelf'),
            rule.optionalOldSelf,
            'may not be set if oldSelf is not used in rule'
          )
        );
      }
    }
  });

  const ap = schema.additionalProperties;
  if (ap !== undefined && typeof ap !== 'boolean') {
    walk(
      ap,
      path.child('additionalProperties'),
      childCardinality(cardinality, schema),
      uncorrelatable,
      w
    );
  }
  const atomicMap = schema['x-kubernetes-map-type'] === 'atomic';
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    walk(
      prop,
      path.child('properties').key(name),
      cardinality,
      uncorrelatable ?? (atomicMap ? path : undefined),
      w
    );
  }
  const items = schema.items;
  if (items !== undefined) {
    const notMap = schema['x-kubernetes-list-type'] !== 'map';
    const forbid = uncorrelatable ?? (notMap ? path : undefined);
    const card = childCardinality(cardinality, schema);
    if (Array.isArray(items)) {
      items.forEach((it, i) => walk(it, path.child('items').index(i), card, forbid, w));
    } else {
      walk(items, path.child('items'), card, forbid, w);
    }
  }
}

/**
 * The field errors of the x-kubernetes-validations of `schema` (a structural schema, its root at
 * `path`, e.g. `spec.versions[0].schema.openAPIV3Schema`), as upstream gives them when a CRD is
 * created or updated.
 */
export function validateSchemaRules(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const w: Walk = { total: 0, observed: [], errors: [] };
  walk(schema, path, 1, undefined, w);
  if (w.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    const mostExpensive = [...w.observed].sort((a, b) => b.cost - a.cost).slice(0, 4);
    for (const e of mostExpensive) {
      w.errors.push(
        fieldForbidden(
          e.path,
          'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'
        )
      );
    }
    w.errors.push(
      fieldForbidden(
        path,
        costErrorMessage(
          'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
          w.total,
          STATIC_ESTIMATED_CRD_COST_LIMIT
        )
      )
    );
  }
  return w.errors;
}
