// The structural invariants of a CRD schema that converts (apiextensions-apiserver
// pkg/apiserver/schema validation.go validateStructuralInvariants, and complete.go): types and
// properties only at the top of each node, value validations under the junctors (anyOf, allOf,
// oneOf, not) restricted to what the node itself specifies, metadata only name and generateName.
import type { FieldError, FieldPath } from '../../errors/index.js';
import { fieldForbidden, fieldInvalid, fieldRequired } from '../../errors/index.js';
import type { JSONSchemaProps } from '../types.js';
import { compileGoRegexp } from '../../cel/go-regexp.js';

type Level = 'root' | 'item' | 'field';

export function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isSchema(s.items) ? s.items : undefined;
}

export function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isSchema(s.additionalProperties) ? s.additionalProperties : undefined;
}

// ---------------------------------------------------------------------------------------------
// ValidateCustomResourceDefinitionOpenAPISchema

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

export function validateStructuralInvariants(
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

export function validateValueValidationCompleteness(
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
