// The strategy of a custom resource (upstream pkg/registry/customresource/strategy.go and
// validator.go): status kept by main-resource writes when the version has a status subresource,
// unknown fields pruned and schema defaults set (the decoding upstream does, repeated here for
// the objects a patch builds), the object validated against the version's schema (OpenAPI value
// validation, then the x-kubernetes-validations rules with the old object on update).
import {
  applyDefaults,
  pruneObject,
  validateCustomResource,
} from '@orch/apimachinery/apiextensions';
import type { JSONSchemaProps } from '@orch/apimachinery/apiextensions';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';

/** The x-kubernetes-validations rules of a schema run on an object (crd-cel's evaluateSchemaRules). */
export type SchemaRules = (schema: JSONSchemaProps, obj: unknown, oldObj: unknown) => FieldError[];

/** The version's schema (every served version of a structural CRD has one). */
export function schemaOf(def: ResourceDefinition): JSONSchemaProps | undefined {
  return def.customResource?.version.schema?.openAPIV3Schema;
}

export function customResourceStrategy(def: ResourceDefinition, rules?: SchemaRules): Strategy {
  const base = defaultStrategy({ hasStatus: def.subresources?.includes('status') ?? false });
  const schema = schemaOf(def);
  const normalize = (obj: ApiObject): void => {
    if (!schema) return;
    pruneObject(obj, schema, { isResourceRoot: true });
    applyDefaults(obj, schema);
  };
  const validate = (obj: ApiObject, old?: ApiObject): FieldError[] => {
    if (!schema) return [];
    const errs = validateCustomResource(obj, schema);
    // Rules run only on objects the schema accepted (upstream: CEL after OpenAPI validation).
    if (errs.length === 0 && rules) errs.push(...rules(schema, obj, old));
    return errs;
  };
  return {
    ...base,
    // Upstream validates custom resource names as DNS subdomains.
    nameRule: 'subdomain',
    prepareForCreate(obj, ctx) {
      base.prepareForCreate.call(this, obj, ctx);
      normalize(obj);
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate.call(this, obj, old);
      normalize(obj);
    },
    validate: (obj) => validate(obj),
    validateUpdate: (obj, old) => validate(obj, old),
  };
}
