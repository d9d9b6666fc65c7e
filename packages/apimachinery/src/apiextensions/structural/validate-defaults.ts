// The check that every `default` of a structural schema is a valid, pruned value of its node
// (apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go ValidateDefaults with
// requirePrunedDefaults, as CRD validation runs it on each version's schema). The CEL rules
// over defaults are not evaluated here.
import type { FieldError, FieldPath } from '../../errors/index.js';
import { fieldInvalid } from '../../errors/index.js';
import type { JSONSchemaProps } from '../types.js';
import { additionalPropertiesOf, deepCopyJson, itemsOf } from './json-object.js';
import { pruneObject } from './prune-object.js';
import { validateCustomResource } from './validate-custom-resource.js';

/**
 * The errors of the defaults in `schema` (at `path`): a default with fields its schema prunes
 * ("must not have unknown fields") or one its schema refuses. Run on structural schemas only.
 */
export function validateDefaults(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const root = schema['x-kubernetes-embedded-resource']
    ? schema
    : { ...schema, 'x-kubernetes-embedded-resource': true };
  validate(root, path, false, errs);
  return errs;
}

function validate(
  s: JSONSchemaProps | undefined,
  p: FieldPath,
  insideMeta: boolean,
  errs: FieldError[]
): void {
  if (typeof s !== 'object' || s === null) return;
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
    errs.push(...validateCustomResource(s.default, s, dp));
  }
  validate(itemsOf(s), p.child('items'), insideMeta, errs);
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    const meta =
      insideMeta || (embedded && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    validate(sub, p.child('properties').key(k), meta, errs);
  }
  validate(additionalPropertiesOf(s), p.child('additionalProperties'), insideMeta, errs);
}
