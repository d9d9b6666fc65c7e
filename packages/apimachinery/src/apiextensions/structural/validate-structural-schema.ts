// The structural-schema checks of a CRD version's openAPIV3Schema: the schema-level rules of
// apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
// (ValidateCustomResourceDefinitionOpenAPISchema, specStandardValidatorV3.validate,
// validateMapListKeysMapSet) and the structural invariants of pkg/apiserver/schema
// (NewStructural, validation.go validateStructuralInvariants, complete.go). Of
// x-kubernetes-validations only the rules' shape is checked here; compiling them is CEL's part.
import type { FieldError } from '../../errors/index.js';
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
} from '../../errors/index.js';
import type { FieldPath } from '../../errors/index.js';
import type { JSONSchemaProps } from '../types.js';
import { compileGoRegexp } from '../../cel/go-regexp.js';

type Level = 'root' | 'item' | 'field';

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

function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isSchema(s.items) ? s.items : undefined;
}

function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isSchema(s.additionalProperties) ? s.additionalProperties : undefined;
}

// ---------------------------------------------------------------------------------------------
// ValidateCustomResourceDefinitionOpenAPISchema

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

// ---------------------------------------------------------------------------------------------
// validateStructuralInvariants

function nonEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  if (!anyOf || anyOf.length !== 2) return false;
  const only = (x: JSONSchemaProps, t: string): boolean =>
    isSchema(x) && Object.keys(x).length === 1 && x.type === t;
  return only(anyOf[0]!, 'integer') && only(anyOf[1]!, 'string');
}

function validateStructuralInvariants(
  s: JSONSchemaProps | undefined,
  lvl: Level,
  p: FieldPath,
  errs: FieldError[]
): void {
  if (!isSchema(s)) return;
  const items = itemsSchema(s);
  if (s.type === 'array' && s.items === undefined) {
    errs.push(fieldRequired(p.child('items'), 'must be specified'));
  }
  validateStructuralInvariants(items, 'item', p.child('items'), errs);
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    validateStructuralInvariants(v, 'field', p.child('properties').key(k), errs);
  }
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') {
      errs.push(fieldForbidden(p.child('additionalProperties'), 'must not be used at the root'));
    }
    validateStructuralInvariants(
      additionalPropertiesSchema(s),
      'field',
      p.child('additionalProperties'),
      errs
    );
  }

  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) {
    errs.push(
      fieldInvalid(
        p.child('x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true'
      )
    );
  }
  if (intOrString && embedded) {
    errs.push(
      fieldInvalid(
        p.child('x-kubernetes-embedded-resource'),
        true,
        'must be false if x-kubernetes-int-or-string is true'
      )
    );
  }

  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const skipFirstAllOfAnyOf =
    (s.allOf?.length ?? 0) >= 1 && isSchema(s.allOf![0]) && isIntOrStringAnyOf(s.allOf![0]!.anyOf);
  validateValueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, p, errs);

  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && s.type !== 'object') {
    if (!s.type) {
      errs.push(
        fieldRequired(p.child('type'), 'must be object if x-kubernetes-embedded-resource is true')
      );
    } else {
      errs.push(
        fieldInvalid(
          p.child('type'),
          s.type,
          'must be object if x-kubernetes-embedded-resource is true'
        )
      );
    }
  } else if (!s.type && !intOrString && !preserve) {
    const detail =
      lvl === 'root'
        ? 'must not be empty at the root'
        : lvl === 'item'
          ? 'must not be empty for specified array items'
          : 'must not be empty for specified object fields';
    errs.push(fieldRequired(p.child('type'), detail));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errs.push(
      fieldForbidden(
        p.child('additionalProperties'),
        'must not be used if x-kubernetes-embedded-resource is set'
      )
    );
  }
  if (lvl === 'root' && s.type && s.type !== 'object') {
    errs.push(fieldInvalid(p.child('type'), s.type, 'must be object at the root'));
  }
  const props = s.properties ?? {};
  if (checkMetadata && props.kind && props.kind.type !== 'string') {
    errs.push(
      fieldInvalid(
        p.child('properties').key('kind').child('type'),
        props.kind.type ?? '',
        'must be string'
      )
    );
  }
  if (checkMetadata && props.apiVersion && props.apiVersion.type !== 'string') {
    errs.push(
      fieldInvalid(
        p.child('properties').key('apiVersion').child('type'),
        props.apiVersion.type ?? '',
        'must be string'
      )
    );
  }
  if (props.metadata) {
    validateMetadataInvariants(
      props.metadata,
      checkMetadata,
      lvl,
      p.child('properties').key('metadata'),
      errs
    );
  }
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errs.push(
      fieldRequired(
        p.child('properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'
      )
    );
  }
}

function validateMetadataInvariants(
  s: JSONSchemaProps,
  checkMetadata: boolean,
  lvl: Level,
  p: FieldPath,
  errs: FieldError[]
): void {
  if (checkMetadata && s.type !== 'object') {
    errs.push(fieldInvalid(p.child('type'), s.type ?? '', 'must be object'));
  }
  if (lvl !== 'root') return;
  // Only type, default and properties naming name and/or generateName are allowed.
  for (const [k, v] of Object.entries(s)) {
    if (k === 'type' || k === 'default') continue;
    if (k === 'properties' && isSchema(v)) {
      const names = Object.keys(v);
      if (names.length === 0 || names.every((n) => n === 'name' || n === 'generateName')) continue;
    }
    if (!nonEmpty(v)) continue;
    errs.push(
      fieldForbidden(
        p,
        'must not specify anything other than name and generateName, but metadata is implicitly specified'
      )
    );
    return;
  }
}

function validateValueValidation(
  v: JSONSchemaProps,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  p: FieldPath,
  errs: FieldError[]
): void {
  if (!skipAnyOf) {
    (v.anyOf ?? []).forEach((x, i) =>
      validateNestedValueValidation(x, false, p.child('anyOf').index(i), errs)
    );
  }
  (v.allOf ?? []).forEach((x, i) =>
    validateNestedValueValidation(
      x,
      skipFirstAllOfAnyOf && i === 0,
      p.child('allOf').index(i),
      errs
    )
  );
  (v.oneOf ?? []).forEach((x, i) =>
    validateNestedValueValidation(x, false, p.child('oneOf').index(i), errs)
  );
  validateNestedValueValidation(v.not, false, p.child('not'), errs);
  if (v.pattern) {
    const re = compileGoRegexp(v.pattern);
    if (re instanceof Error) {
      errs.push(
        fieldInvalid(
          p.child('pattern'),
          v.pattern,
          `must be a valid regular expression, but isn't: ${re.message}`
        )
      );
    }
  }
}

function validateNestedValueValidation(
  v: JSONSchemaProps | undefined,
  skipAnyOf: boolean,
  p: FieldPath,
  errs: FieldError[]
): void {
  if (!isSchema(v)) return;
  validateValueValidation(v, skipAnyOf, false, p, errs);
  validateNestedValueValidation(itemsSchema(v), false, p.child('items'), errs);
  for (const [k, f] of Object.entries(v.properties ?? {})) {
    validateNestedValueValidation(f, false, p.child('properties').key(k), errs);
  }
  if (v.type) errs.push(fieldForbidden(p.child('type'), 'must be empty to be structural'));
  // NewStructural keeps a nested additionalProperties only as a schema or `true`.
  if (v.additionalProperties !== undefined && v.additionalProperties !== false) {
    errs.push(
      fieldForbidden(p.child('additionalProperties'), 'must be undefined to be structural')
    );
  }
  if (v.default !== undefined) {
    errs.push(fieldForbidden(p.child('default'), 'must be undefined to be structural'));
  }
  if (v.title) errs.push(fieldForbidden(p.child('title'), 'must be empty to be structural'));
  if (v.description) {
    errs.push(fieldForbidden(p.child('description'), 'must be empty to be structural'));
  }
  if (v.nullable) errs.push(fieldForbidden(p.child('nullable'), 'must be false to be structural'));
  const forbiddenTrue: (keyof JSONSchemaProps)[] = [
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-int-or-string',
  ];
  for (const k of forbiddenTrue) {
    if (v[k]) errs.push(fieldForbidden(p.child(k), 'must be false to be structural'));
  }
  if ((v['x-kubernetes-list-map-keys'] ?? []).length > 0) {
    errs.push(
      fieldForbidden(p.child('x-kubernetes-list-map-keys'), 'must be empty to be structural')
    );
  }
  if (v['x-kubernetes-list-type'] !== undefined) {
    errs.push(
      fieldForbidden(p.child('x-kubernetes-list-type'), 'must be undefined to be structural')
    );
  }
  if (v['x-kubernetes-map-type'] !== undefined) {
    errs.push(
      fieldForbidden(p.child('x-kubernetes-map-type'), 'must be undefined to be structural')
    );
  }
  if ((v['x-kubernetes-validations'] ?? []).length > 0) {
    errs.push(
      fieldForbidden(p.child('x-kubernetes-validations'), 'must be empty to be structural')
    );
  }
  if (v.properties && 'metadata' in v.properties) {
    errs.push(
      fieldForbidden(
        p.child('properties').key('metadata'),
        'must not be specified in a nested context'
      )
    );
  }
}

// ---------------------------------------------------------------------------------------------
// complete.go: every property or items a junctor speaks of must be specified structurally.

function validateValueValidationCompleteness(
  v: JSONSchemaProps,
  s: JSONSchemaProps | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
  errs: FieldError[]
): void {
  const junctors = nonEmpty(v.not) || nonEmpty(v.allOf) || nonEmpty(v.anyOf) || nonEmpty(v.oneOf);
  if (!junctors) return;
  if (!s) {
    errs.push(fieldRequired(sPath, `because it is defined in ${vPath.toString()}`));
    return;
  }
  validateNestedCompleteness(v.not, s, sPath, vPath.child('not'), errs);
  (v.allOf ?? []).forEach((x, i) =>
    validateNestedCompleteness(x, s, sPath, vPath.child('allOf').index(i), errs)
  );
  (v.anyOf ?? []).forEach((x, i) =>
    validateNestedCompleteness(x, s, sPath, vPath.child('anyOf').index(i), errs)
  );
  (v.oneOf ?? []).forEach((x, i) =>
    validateNestedCompleteness(x, s, sPath, vPath.child('oneOf').index(i), errs)
  );
}

function validateNestedCompleteness(
  v: JSONSchemaProps | undefined,
  s: JSONSchemaProps | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
  errs: FieldError[]
): void {
  if (!isSchema(v)) return;
  if (!s) {
    errs.push(fieldRequired(sPath, `because it is defined in ${vPath.toString()}`));
    return;
  }
  validateValueValidationCompleteness(v, s, sPath, vPath, errs);
  const vItems = itemsSchema(v);
  if (vItems) {
    validateNestedCompleteness(
      vItems,
      itemsSchema(s),
      sPath.child('items'),
      vPath.child('items'),
      errs
    );
  }
  for (const [k, vf] of Object.entries(v.properties ?? {})) {
    const sf = s.properties?.[k];
    if (!sf) {
      errs.push(
        fieldRequired(
          sPath.child('properties').key(k),
          `because it is defined in ${vPath.child('properties').key(k).toString()}`
        )
      );
    } else {
      validateNestedCompleteness(
        vf,
        sf,
        sPath.child('properties').key(k),
        vPath.child('properties').key(k),
        errs
      );
    }
  }
}
