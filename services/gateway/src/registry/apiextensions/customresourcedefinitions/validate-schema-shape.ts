// The JSON shape of an openAPIV3Schema: each JSONSchemaProps keyword holds the JSON type upstream's
// Go struct decodes (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1
// types_jsonschema.go, whose decoding refuses any other). The CRD kind keeps the schema as raw
// JSON, so this check stands in for that decoding before the schema libraries read it.
import { fieldInvalid } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

type Kind =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'strings'
  | 'any'
  | 'anys'
  | 'schema'
  | 'schemas'
  | 'schemaMap'
  | 'schemaOrArray'
  | 'schemaOrBool'
  | 'schemaOrStrings'
  | 'docs'
  | 'rules';

const keywords: Record<string, Kind> = {
  id: 'string',
  $schema: 'string',
  $ref: 'string',
  description: 'string',
  type: 'string',
  format: 'string',
  title: 'string',
  default: 'any',
  maximum: 'number',
  exclusiveMaximum: 'boolean',
  minimum: 'number',
  exclusiveMinimum: 'boolean',
  maxLength: 'integer',
  minLength: 'integer',
  pattern: 'string',
  maxItems: 'integer',
  minItems: 'integer',
  uniqueItems: 'boolean',
  multipleOf: 'number',
  enum: 'anys',
  maxProperties: 'integer',
  minProperties: 'integer',
  required: 'strings',
  items: 'schemaOrArray',
  allOf: 'schemas',
  oneOf: 'schemas',
  anyOf: 'schemas',
  not: 'schema',
  properties: 'schemaMap',
  additionalProperties: 'schemaOrBool',
  patternProperties: 'schemaMap',
  dependencies: 'schemaOrStrings',
  additionalItems: 'schemaOrBool',
  definitions: 'schemaMap',
  externalDocs: 'docs',
  example: 'any',
  nullable: 'boolean',
  'x-kubernetes-preserve-unknown-fields': 'boolean',
  'x-kubernetes-embedded-resource': 'boolean',
  'x-kubernetes-int-or-string': 'boolean',
  'x-kubernetes-list-map-keys': 'strings',
  'x-kubernetes-list-type': 'string',
  'x-kubernetes-map-type': 'string',
  'x-kubernetes-validations': 'rules',
};

const ruleKeys: Record<string, 'string' | 'boolean'> = {
  rule: 'string',
  message: 'string',
  messageExpression: 'string',
  reason: 'string',
  fieldPath: 'string',
  optionalOldSelf: 'boolean',
};

const wrong = (path: FieldPath, v: unknown, what: string): FieldError =>
  fieldInvalid(path, v, `must be ${what}`);

function scalar(v: unknown, kind: 'string' | 'number' | 'integer' | 'boolean'): boolean {
  if (kind === 'integer') return typeof v === 'number' && Number.isInteger(v);
  return typeof v === kind;
}

function checkValue(kind: Kind, v: unknown, path: FieldPath, errs: FieldError[]): void {
  switch (kind) {
    case 'any':
      return;
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      if (!scalar(v, kind)) errs.push(wrong(path, v, `of type ${kind}`));
      return;
    case 'strings':
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
        errs.push(wrong(path, v, 'a list of strings'));
      return;
    case 'anys':
      if (!Array.isArray(v)) errs.push(wrong(path, v, 'a list'));
      return;
    case 'schema':
      shape(v, path, errs);
      return;
    case 'schemas':
      if (!Array.isArray(v)) errs.push(wrong(path, v, 'a list of schemas'));
      else v.forEach((s, i) => shape(s, path.index(i), errs));
      return;
    case 'schemaMap':
      if (!isObject(v)) errs.push(wrong(path, v, 'an object of schemas'));
      else for (const [k, s] of Object.entries(v)) shape(s, path.key(k), errs);
      return;
    case 'schemaOrArray':
      if (Array.isArray(v)) v.forEach((s, i) => shape(s, path.index(i), errs));
      else shape(v, path, errs);
      return;
    case 'schemaOrBool':
      if (typeof v !== 'boolean') shape(v, path, errs);
      return;
    case 'schemaOrStrings':
      if (!isObject(v)) errs.push(wrong(path, v, 'an object'));
      else
        for (const [k, s] of Object.entries(v)) {
          if (Array.isArray(s)) checkValue('strings', s, path.key(k), errs);
          else shape(s, path.key(k), errs);
        }
      return;
    case 'docs':
      if (!isObject(v)) errs.push(wrong(path, v, 'an object'));
      else
        for (const k of ['description', 'url'])
          if (v[k] !== undefined) checkValue('string', v[k], path.child(k), errs);
      return;
    case 'rules':
      if (!Array.isArray(v)) {
        errs.push(wrong(path, v, 'a list of rules'));
        return;
      }
      v.forEach((r, i) => {
        if (!isObject(r)) {
          errs.push(wrong(path.index(i), r, 'an object'));
          return;
        }
        for (const [k, t] of Object.entries(ruleKeys))
          if (r[k] !== undefined) checkValue(t, r[k], path.index(i).child(k), errs);
      });
      return;
  }
}

function shape(v: unknown, path: FieldPath, errs: FieldError[]): void {
  if (!isObject(v)) {
    errs.push(wrong(path, v, 'an object'));
    return;
  }
  for (const [key, value] of Object.entries(v)) {
    const kind = keywords[key];
    if (kind === undefined || value === undefined) continue;
    checkValue(kind, value, path.child(key), errs);
  }
}

/** Every keyword of the schema (and its nested schemas) holding a JSON type upstream cannot decode. */
export function validateSchemaShape(schema: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  shape(schema, path, errs);
  return errs;
}
