// The structural-schema checks of a CRD version's openAPIV3Schema: the schema-level rules of
// apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
// (ValidateCustomResourceDefinitionOpenAPISchema, specStandardValidatorV3.validate,
// validateMapListKeysMapSet), NewStructural's refusals, then the structural invariants of
// pkg/apiserver/schema (validate-structural-invariants.ts). Of x-kubernetes-validations only the
// rules' shape is checked here; compiling them is CEL's part.
import type { FieldError } from '../../errors/index.js';
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
} from '../../errors/index.js';
import type { FieldPath } from '../../errors/index.js';
import type { JSONSchemaProps } from '../types.js';
import {
  additionalPropertiesSchema,
  isSchema,
  itemsSchema,
  validateStructuralInvariants,
  validateValueValidationCompleteness,
} from './validate-structural-invariants.js';

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const metaFields = new Set(['metadata', 'apiVersion', 'kind']);

interface SpecContext {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
}

/**
 * Every violation of the structural-schema rules in `schema`, which sits at `path`
 * (`spec.versions[i].schema.openAPIV3Schema`). Empty when the schema is structural.
 */
export function validateStructuralSchema(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  validateOpenAPISchema(
    schema,
    path,
    { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false },
    true,
    errs
  );
  // Upstream converts to a Structural only when NewStructural succeeds; its error is reported
  // only when the schema checks above found nothing (they overlap).
  const convertError = conversionError(schema);
  if (convertError !== undefined) {
    if (errs.length === 0) errs.push(fieldInvalid(path, '', convertError));
  } else {
    const structural: FieldError[] = [];
    validateStructuralInvariants(schema, 'root', path, structural);
    validateValueValidationCompleteness(schema, schema, path, path, structural);
    structural.sort((a, b) => errorString(a).localeCompare(errorString(b)));
    errs.push(...structural);
  }
  return errs;
}

function errorString(e: FieldError): string {
  return `${e.field}: ${e.type}: ${e.message}`;
}

function validateSpecStandard(s: JSONSchemaProps, p: FieldPath, ctx: SpecContext): FieldError[] {
  const errs: FieldError[] = [];
  if (s.type !== undefined && s.type !== '' && !openapiV3Types.includes(s.type)) {
    errs.push(fieldNotSupported(p.child('type'), s.type, openapiV3Types));
  }
  if (s.default !== undefined && !ctx.allowDefaults) {
    let detail = 'must not be set';
    if (ctx.disallowDefaultsReason) detail += ` ${ctx.disallowDefaultsReason}`;
    errs.push(fieldForbidden(p.child('default'), detail));
  }
  if (s.id) errs.push(fieldForbidden(p.child('id'), 'id is not supported'));
  if (s.additionalItems !== undefined) {
    errs.push(fieldForbidden(p.child('additionalItems'), 'additionalItems is not supported'));
  }
  if (s.patternProperties && Object.keys(s.patternProperties).length > 0) {
    errs.push(fieldForbidden(p.child('patternProperties'), 'patternProperties is not supported'));
  }
  if (s.definitions && Object.keys(s.definitions).length > 0) {
    errs.push(fieldForbidden(p.child('definitions'), 'definitions is not supported'));
  }
  if (s.dependencies !== undefined) {
    errs.push(fieldForbidden(p.child('dependencies'), 'dependencies is not supported'));
  }
  if (s.$ref !== undefined) errs.push(fieldForbidden(p.child('$ref'), '$ref is not supported'));
  if (s.type === 'null') {
    errs.push(
      fieldForbidden(p.child('type'), 'type cannot be set to null, use nullable as an alternative')
    );
  }
  if (Array.isArray(s.items) && s.items.length > 0) {
    errs.push(fieldForbidden(p.child('items'), 'items must be a schema object and not an array'));
  }
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource']) {
    errs.push(
      fieldForbidden(
        p.child('x-kubernetes-embedded-resource'),
        'must not be used inside of resource meta'
      )
    );
  }
  return errs;
}

function validateOpenAPISchema(
  s: JSONSchemaProps | undefined,
  p: FieldPath,
  ctx: SpecContext,
  isRoot: boolean,
  errs: FieldError[]
): void {
  if (!isSchema(s)) return;
  errs.push(...validateSpecStandard(s, p, ctx));

  if (s.uniqueItems) {
    errs.push(
      fieldForbidden(
        p.child('uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'
      )
    );
  }

  const props = s.properties ?? {};
  if (s.additionalProperties !== undefined) {
    if (Object.keys(props).length > 0) {
      if (s.additionalProperties !== true) {
        errs.push(
          fieldForbidden(
            p.child('additionalProperties'),
            'additionalProperties and properties are mutual exclusive'
          )
        );
      }
    }
    let sub = ctx;
    if (ctx.insideResourceMeta) {
      sub = {
        ...ctx,
        allowDefaults: false,
        disallowDefaultsReason: 'inside additionalProperties applying to object metadata',
      };
    }
    validateOpenAPISchema(
      additionalPropertiesSchema(s),
      p.child('additionalProperties'),
      sub,
      false,
      errs
    );
  }

  for (const [name, prop] of Object.entries(props)) {
    let sub = ctx;
    if ((isRoot || s['x-kubernetes-embedded-resource']) && metaFields.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) {
        sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${name}` };
      }
    }
    validateOpenAPISchema(prop, p.child('properties').key(name), sub, false, errs);
  }

  validateOpenAPISchema(s.not, p.child('not'), ctx, false, errs);
  (s.allOf ?? []).forEach((x, i) =>
    validateOpenAPISchema(x, p.child('allOf').index(i), ctx, false, errs)
  );
  (s.oneOf ?? []).forEach((x, i) =>
    validateOpenAPISchema(x, p.child('oneOf').index(i), ctx, false, errs)
  );
  (s.anyOf ?? []).forEach((x, i) =>
    validateOpenAPISchema(x, p.child('anyOf').index(i), ctx, false, errs)
  );
  for (const [name, def] of Object.entries(s.definitions ?? {})) {
    validateOpenAPISchema(def, p.child('definitions').key(name), ctx, false, errs);
  }
  if (isSchema(s.items)) {
    validateOpenAPISchema(s.items, p.child('items'), ctx, false, errs);
  } else if (Array.isArray(s.items)) {
    s.items.forEach((x, i) =>
      validateOpenAPISchema(x, p.child('items').index(i), ctx, false, errs)
    );
  }
  for (const [name, dep] of Object.entries(s.dependencies ?? {})) {
    if (isSchema(dep)) {
      validateOpenAPISchema(dep, p.child('dependencies').key(name), ctx, false, errs);
    }
  }

  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(
      fieldInvalid(
        p.child('x-kubernetes-preserve-unknown-fields'),
        false,
        'must be true or undefined'
      )
    );
  }

  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && s.type !== 'object') {
    if (!s.type) {
      errs.push(
        fieldRequired(p.child('type'), 'must be object if x-kubernetes-map-type is specified')
      );
    } else {
      errs.push(
        fieldInvalid(
          p.child('type'),
          s.type,
          'must be object if x-kubernetes-map-type is specified'
        )
      );
    }
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(fieldNotSupported(p.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }

  const listType = s['x-kubernetes-list-type'];
  const items = itemsSchema(s);
  if (listType !== undefined && s.type !== 'array') {
    if (!s.type) {
      errs.push(
        fieldRequired(p.child('type'), 'must be array if x-kubernetes-list-type is specified')
      );
    } else {
      errs.push(
        fieldInvalid(
          p.child('type'),
          s.type,
          'must be array if x-kubernetes-list-type is specified'
        )
      );
    }
  } else if (listType === 'set' && items) {
    if (items.type === 'array') {
      const t = items['x-kubernetes-list-type'];
      if (t !== undefined && t !== 'atomic') {
        errs.push(
          fieldInvalid(
            p.child('items', 'x-kubernetes-list-type'),
            t,
            'must be atomic as item of a list with x-kubernetes-list-type=set'
          )
        );
      }
    } else if (items.type === 'object') {
      if (items['x-kubernetes-map-type'] !== 'atomic') {
        errs.push(
          fieldInvalid(
            p.child('items', 'x-kubernetes-map-type'),
            items['x-kubernetes-list-type'] ?? null,
            'must be atomic as item of a list with x-kubernetes-list-type=set'
          )
        );
      }
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(
      fieldNotSupported(p.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map'])
    );
  }

  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  if (mapKeys.length > 0) {
    if (listType === undefined) {
      errs.push(
        fieldRequired(
          p.child('x-kubernetes-list-type'),
          'must be map if x-kubernetes-list-map-keys is non-empty'
        )
      );
    } else if (listType !== 'map') {
      errs.push(
        fieldInvalid(
          p.child('x-kubernetes-list-type'),
          listType,
          'must be map if x-kubernetes-list-map-keys is non-empty'
        )
      );
    }
  }

  if (listType === 'map') {
    if (mapKeys.length === 0) {
      errs.push(
        fieldRequired(
          p.child('x-kubernetes-list-map-keys'),
          'must not be empty if x-kubernetes-list-type is map'
        )
      );
    }
    if (s.items === undefined) {
      errs.push(
        fieldRequired(p.child('items'), 'must have a schema if x-kubernetes-list-type is map')
      );
    } else if (!items) {
      errs.push(
        fieldInvalid(
          p.child('items'),
          s.items,
          'must only have a single schema if x-kubernetes-list-type is map'
        )
      );
    }
    if (items && items.type !== 'object') {
      errs.push(
        fieldInvalid(
          p.child('items', 'type'),
          items.type ?? '',
          "must be object if parent array's x-kubernetes-list-type is map"
        )
      );
    }
    if (items && items.type === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const ks = items.properties?.[k];
        if (ks) {
          if (ks.type === 'array' || ks.type === 'object') {
            errs.push(
              fieldInvalid(
                p.child('items', 'properties').key(k).child('type'),
                items.type,
                "must be a scalar type if parent array's x-kubernetes-list-type is map"
              )
            );
          }
        } else {
          errs.push(
            fieldInvalid(
              p.child('x-kubernetes-list-map-keys'),
              mapKeys,
              'entries must all be names of item properties'
            )
          );
        }
        if (seen.has(k)) {
          errs.push(
            fieldInvalid(
              p.child('x-kubernetes-list-map-keys'),
              mapKeys,
              'must not contain duplicate entries'
            )
          );
        }
        seen.add(k);
      }
    }
  }

  validateRuleShapes(s, p, errs);

  // validateMapListKeysMapSet (required for new CRDs).
  if (items && (listType === 'set' || listType === 'map')) {
    if (items.nullable) {
      errs.push(
        fieldForbidden(
          p.child('items', 'nullable'),
          `cannot be nullable when x-kubernetes-list-type is ${listType}`
        )
      );
    }
    if (listType === 'map') {
      const required = new Set(items.required ?? []);
      for (const k of mapKeys) {
        const ks = items.properties?.[k];
        if (!ks) continue;
        if (!required.has(k) && ks.default === undefined) {
          errs.push(
            fieldRequired(
              p.child('items', 'properties').key(k).child('default'),
              'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'
            )
          );
        }
        if (ks.nullable) {
          errs.push(
            fieldForbidden(
              p.child('items', 'properties').key(k).child('nullable'),
              'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'
            )
          );
        }
      }
    }
  }
}

const supportedValidationReasons = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];
const newlines = /[\n\r]+/;

/**
 * The shape of each x-kubernetes-validations rule (rule, message, messageExpression, reason,
 * fieldPath), checked before any CEL compilation; compiling and costing rules is CEL's part.
 */
function validateRuleShapes(s: JSONSchemaProps, p: FieldPath, errs: FieldError[]): void {
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const rp = p.child('x-kubernetes-validations').index(i);
    const trimmedRule = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    if (trimmedRule === '') {
      errs.push(fieldRequired(rp.child('rule'), 'rule is not specified'));
    } else if (message.length > 0 && trimmedMsg === '') {
      errs.push(fieldInvalid(rp.child('message'), message, 'must be non-empty if specified'));
    } else if (newlines.test(trimmedMsg)) {
      errs.push(fieldInvalid(rp.child('message'), message, 'must not contain line breaks'));
    } else if (newlines.test(trimmedRule) && trimmedMsg === '') {
      errs.push(
        fieldRequired(rp.child('message'), 'message must be specified if rule contains line breaks')
      );
    }
    const messageExpression = rule.messageExpression ?? '';
    if (messageExpression.length > 0 && messageExpression.trim() === '') {
      errs.push(
        fieldRequired(
          rp.child('messageExpression'),
          'messageExpression must be non-empty if specified'
        )
      );
    }
    if (rule.reason !== undefined && !supportedValidationReasons.includes(rule.reason)) {
      errs.push(fieldNotSupported(rp.child('reason'), rule.reason, supportedValidationReasons));
    }
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath.length > 0 && fieldPath.trim() === '') {
      errs.push(fieldInvalid(rp.child('fieldPath'), fieldPath, 'must be non-empty if specified'));
    }
    if (newlines.test(fieldPath)) {
      errs.push(fieldInvalid(rp.child('fieldPath'), fieldPath, 'must not contain line breaks'));
    }
  });
}

// ---------------------------------------------------------------------------------------------
// NewStructural: the keywords that make a schema non-convertible.

/** NewStructural's error for `s` (convert.go validateUnsupportedFields), or undefined. */
function conversionError(s: JSONSchemaProps | undefined): string | undefined {
  if (!isSchema(s)) return undefined;
  if (s.id) return "OpenAPIV3Schema 'id' is not supported";
  if (s.$schema) return "OpenAPIV3Schema 'schema' is not supported";
  if (s.$ref) return "OpenAPIV3Schema '$ref' is not supported";
  if (s.patternProperties && Object.keys(s.patternProperties).length > 0) {
    return "OpenAPIV3Schema 'patternProperties' is not supported";
  }
  if (s.dependencies && Object.keys(s.dependencies).length > 0) {
    return "OpenAPIV3Schema 'dependencies' is not supported";
  }
  if (s.additionalItems !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (s.definitions && Object.keys(s.definitions).length > 0) {
    return "OpenAPIV3Schema 'definitions' is not supported";
  }
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  const children: (JSONSchemaProps | undefined)[] = [
    itemsSchema(s),
    ...Object.values(s.properties ?? {}),
    additionalPropertiesSchema(s),
    ...(s.allOf ?? []),
    ...(s.anyOf ?? []),
    ...(s.oneOf ?? []),
    s.not,
  ];
  for (const c of children) {
    const e = conversionError(c);
    if (e !== undefined) return e;
  }
  return undefined;
}
