// The check that every `default` of a structural schema is a valid, pruned value of its node
// (apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go ValidateDefaults with
// requirePrunedDefaults, as CRD validation runs it on each version's schema). A default its
// schema accepts is then checked against the x-kubernetes-validations rules of its node and
// below (upstream's cel.NewValidator(...).Validate with the default as object and old object,
// then, as with CRDValidationRatcheting, without an old object), all defaults sharing one
// RuntimeCELCostBudget; a failed rule makes the CRD invalid at `...default` and below.
import { RUNTIME_CEL_COST_BUDGET } from '../../cel/index.js';
import type { FieldError, FieldPath } from '../../errors/index.js';
import { fieldInvalid } from '../../errors/index.js';
import { evaluateSchemaRules } from '../cel/evaluate-schema-rules.js';
import type { JSONSchemaProps } from '../types.js';
import { additionalPropertiesOf, deepCopyJson, itemsOf } from './json-object.js';
import { pruneObject } from './prune-object.js';
import { validateCustomResource } from './validate-custom-resource.js';

/**
 * The errors of the defaults in `schema` (at `path`): a default with fields its schema prunes
 * ("must not have unknown fields"), one its schema refuses, or one that fails a rule of
 * x-kubernetes-validations. Run on structural schemas only.
 */
export function validateDefaults(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const root = schema['x-kubernetes-embedded-resource']
    ? schema
    : { ...schema, 'x-kubernetes-embedded-resource': true };
  validate(root, path, false, errs, { remaining: RUNTIME_CEL_COST_BUDGET });
  return errs;
}

/** The CEL budget the defaults share (upstream's remainingCost). */
interface Budget {
  remaining: number;
}

/** `inner` (a path from evaluateSchemaRules: '', `a.b`, `[0].a`) under `base`. */
function under(base: string, inner: string): string {
  if (inner === '') return base;
  return inner.startsWith('[') ? `${base}${inner}` : `${base}.${inner}`;
}

/**
 * The rule errors of `value` as the default of `s` at `dp`: evaluated with the default as
 * its own old value (transition rules run), then without one (optionalOldSelf rules see none).
 */
function celErrors(
  s: JSONSchemaProps,
  value: unknown,
  dp: FieldPath,
  budget: Budget
): FieldError[] {
  const base = dp.toString();
  const at = (errs: readonly FieldError[]): FieldError[] =>
    errs.map((e) => ({ ...e, field: under(base, e.field) }));
  const withOld = evaluateSchemaRules(s, value, value, { budget: budget.remaining });
  if (withOld.errors.length > 0 || withOld.remainingBudget < 0) {
    budget.remaining = withOld.remainingBudget;
    return at(withOld.errors);
  }
  const withoutOld = evaluateSchemaRules(s, value, undefined, { budget: budget.remaining });
  budget.remaining = Math.min(withOld.remainingBudget, withoutOld.remainingBudget);
  return at(withoutOld.errors);
}

function validate(
  s: JSONSchemaProps | undefined,
  p: FieldPath,
  insideMeta: boolean,
  errs: FieldError[],
  budget: Budget
): void {
  if (typeof s !== 'object' || s === null || budget.remaining < 0) return;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (embedded) insideMeta = false;
  if (s.default !== undefined && s.default !== null) {
    const dp = p.child('default');
    if (!insideMeta) {
      const pruned = deepCopyJson(s.default);
      pruneObject(pruned, s, { isResourceRoot: embedded });
      if (JSON.stringify(pruned) !== JSON.stringify(s.default)) {
        errs.push(fieldInvalid(dp, s.default, 'must not have unknown fields'));
      }
    }
    const invalid = validateCustomResource(s.default, s, dp);
    errs.push(...invalid);
    if (invalid.length === 0) errs.push(...celErrors(s, s.default, dp, budget));
  }
  validate(itemsOf(s), p.child('items'), insideMeta, errs, budget);
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    const meta =
      insideMeta || (embedded && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    validate(sub, p.child('properties').key(k), meta, errs, budget);
  }
  validate(additionalPropertiesOf(s), p.child('additionalProperties'), insideMeta, errs, budget);
}
