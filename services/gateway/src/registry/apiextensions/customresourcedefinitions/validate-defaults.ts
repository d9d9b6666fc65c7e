// The defaults of a structural schema must be pruned and valid (k8s.io/apiextensions-apiserver
// pkg/apiserver/schema/defaulting/validation.go ValidateDefaults): every `default` under
// `properties` and `items` (defaults are forbidden elsewhere) keeps no field its node's schema
// does not specify ("must not have unknown fields") and passes the node's value validation, with
// its errors under `<node>.default`. The x-kubernetes-validations rules of the node are not
// evaluated on the default here.
import { pruneObject, validateCustomResource } from '@orch/apimachinery/apiextensions';
import type { JSONSchemaProps } from '@orch/apimachinery/apiextensions';
import { fieldInvalid } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { sameJson } from '@orch/apimachinery/meta';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(s: JSONSchemaProps, path: FieldPath, errs: FieldError[]): void {
  if (s.default !== undefined) {
    const pruned = structuredClone(s.default);
    pruneObject(pruned, s, { isResourceRoot: s['x-kubernetes-embedded-resource'] === true });
    if (!sameJson(pruned, s.default))
      errs.push(fieldInvalid(path.child('default'), s.default, 'must not have unknown fields'));
    errs.push(...validateCustomResource(s.default, s, path.child('default')));
  }
  if (isObject(s.items)) walk(s.items as JSONSchemaProps, path.child('items'), errs);
  for (const [k, sub] of Object.entries(s.properties ?? {}))
    if (isObject(sub)) walk(sub, path.child('properties').key(k), errs);
}

/** Every default of `schema` (which sits at `path`) that is not pruned or not valid. */
export function validateDefaults(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  walk(schema, path, errs);
  return errs;
}
