// The OpenAPI value validation of a custom object against its CRD version's schema
// (apiextensions-apiserver pkg/apiserver/validation/validation.go ValidateCustomResource over
// kube-openapi pkg/validation/validate, errors turned into field errors as
// kubeOpenAPIResultToFieldErrors does), the list-type set and map uniqueness checks
// (pkg/apiserver/schema/listtype ValidateListSetsAndMaps) and the checks of embedded resources'
// apiVersion, kind and metadata (pkg/apiserver/schema/objectmeta Validate). The
// x-kubernetes-validations rules are evaluated elsewhere (CEL).
import type { FieldError, FieldPath } from '../../errors/index.js';
import {
  fieldDuplicate,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  fieldTooLong,
  fieldTooMany,
  fieldTypeInvalid,
} from '../../errors/index.js';
import { newPath } from '../../errors/index.js';
import { validateObjectMeta } from '../../meta/index.js';
import type { JSONSchemaProps } from '../types.js';
import { checkStringFormat, supportedStringFormat } from './formats.js';
import { compileGoRegexp } from '../../cel/go-regexp.js';
import type { JsonObject } from './json-object.js';
import { additionalPropertiesOf, isJsonObject, itemsOf, propertyOf } from './json-object.js';

/**
 * The field errors of `obj` against `schema`. `path` prefixes every error's field, as upstream's
 * fldPath does; without it, fields start at the object's top (`spec.replicas`) and errors about
 * the whole object (allOf, anyOf, oneOf, not) carry upstream's nil path, `<nil>`.
 */
export function validateCustomResource(
  obj: unknown,
  schema: JSONSchemaProps,
  path?: FieldPath
): FieldError[] {
  const v = new ValueValidator(path);
  v.validate(obj, schema, '');
  const errs = v.errs;
  errs.push(...validateListSetsAndMaps(path?.toString() ?? '', schema, obj));
  errs.push(...validateEmbeddedResources(path?.toString() ?? '', obj, schema));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// kube-openapi value validation

function join(parent: string, k: string): string {
  return parent === '' ? k : `${parent}.${k}`;
}

function jsonType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(v) ? 'integer' : 'number';
    default:
      return 'object';
  }
}

/** Go's %v of a JSON number. */
function goNumber(n: number): string {
  return String(n);
}

/** Go's %q of a string. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Deep equality of decoded JSON values (reflect.DeepEqual over JSON). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** json.Marshal with sorted map keys, for set membership. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isJsonObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

class ValueValidator {
  readonly errs: FieldError[] = [];
  readonly #root: FieldPath | undefined;

  constructor(root: FieldPath | undefined) {
    this.#root = root;
  }

  #field(name: string): string {
    if (this.#root === undefined) return name;
    return name === '' ? this.#root.toString() : this.#root.child(name).toString();
  }

  #rootField(): string {
    return this.#root === undefined ? '<nil>' : this.#root.toString();
  }

  /** Validates without recording: the errors `data` has against `s`. */
  #trial(data: unknown, s: JSONSchemaProps, name: string): FieldError[] {
    const sub = new ValueValidator(this.#root);
    sub.validate(data, s, name);
    return sub.errs;
  }

  validate(data: unknown, s: JSONSchemaProps | undefined, name: string): void {
    if (typeof s !== 'object' || s === null) return;
    const field = this.#field(name);
    const types = s['x-kubernetes-int-or-string'] ? ['integer', 'string'] : s.type ? [s.type] : [];
    const t = jsonType(data);

    // typeValidator
    if (data === null || data === undefined) {
      if (types.length > 0 && !types.includes('null') && !s.nullable) {
        this.errs.push(
          fieldTypeInvalid(
            field,
            'null',
            `${name} in body must be of type ${types.join(',')}: ${goQuote('null')}`
          )
        );
      }
      return;
    }
    let typeOk = true;
    if (types.length > 0) {
      typeOk = types.includes(t) || (t === 'integer' && types.includes('number'));
      if (!typeOk) {
        this.errs.push(
          fieldTypeInvalid(
            field,
            t,
            `${name} in body must be of type ${types.join(',')}: ${goQuote(t)}`
          )
        );
      }
    }

    // schemaPropsValidator
    this.#junctors(data, s, name);

    // stringValidator, formatValidator
    if (typeof data === 'string') {
      const runes = [...data].length;
      if (s.maxLength !== undefined && runes > s.maxLength) {
        this.errs.push(fieldTooLong(field, s.maxLength));
      }
      if (s.minLength !== undefined && runes < s.minLength) {
        this.errs.push(
          fieldInvalid(field, data, `${name} in body should be at least ${s.minLength} chars long`)
        );
      }
      if (s.pattern) {
        const re = compileGoRegexp(s.pattern);
        if (re instanceof RegExp && !re.test(data)) {
          this.errs.push(fieldInvalid(field, data, `${name} in body should match '${s.pattern}'`));
        }
      }
      if (s.format && (types.length !== 1 || types[0] === 'string')) {
        const f = supportedStringFormat(s.format);
        if (f !== undefined && !checkStringFormat(f, data)) {
          this.errs.push(
            fieldTypeInvalid(field, data, `${name} in body must be of type ${f}: ${goQuote(data)}`)
          );
        }
      }
    }

    // numberValidator
    if (typeof data === 'number') this.#number(data, s, name, field);

    // sliceValidator
    if (Array.isArray(data)) {
      if (s.minItems !== undefined && data.length < s.minItems) {
        this.errs.push(
          fieldInvalid(
            field,
            data.length,
            `${name} in body should have at least ${s.minItems} items`
          )
        );
      }
      if (s.maxItems !== undefined && data.length > s.maxItems) {
        this.errs.push(fieldTooMany(field, data.length, s.maxItems));
      }
      if (s.uniqueItems) {
        const seen = new Set<string>();
        if (data.some((x) => seen.size === seen.add(canonicalJson(x)).size)) {
          this.errs.push(fieldInvalid(field, '', `${name} in body shouldn't contain duplicates`));
        }
      }
      const items = itemsOf(s);
      if (items) data.forEach((x, i) => this.validate(x, items, `${name}[${i}]`));
    }

    // commonValidator
    if (s.enum && s.enum.length > 0 && !s.enum.some((e) => jsonEqual(e, data))) {
      const values = s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
      this.errs.push(fieldNotSupported(field, data, values));
    }

    // objectValidator
    if (isJsonObject(data)) this.#object(data, s, name, field);
  }

  #number(data: number, s: JSONSchemaProps, name: string, field: string): void {
    if (s.multipleOf !== undefined && s.multipleOf > 0) {
      const q = data / s.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9 * Math.max(1, Math.abs(q))) {
        this.errs.push(
          fieldInvalid(
            field,
            data,
            `${name} in body should be a multiple of ${goNumber(s.multipleOf)}`
          )
        );
      }
    }
    if (s.maximum !== undefined) {
      if (s.exclusiveMaximum ? data >= s.maximum : data > s.maximum) {
        const rel = s.exclusiveMaximum ? 'less than' : 'less than or equal to';
        this.errs.push(
          fieldInvalid(field, data, `${name} in body should be ${rel} ${goNumber(s.maximum)}`)
        );
      }
    }
    if (s.minimum !== undefined) {
      if (s.exclusiveMinimum ? data <= s.minimum : data < s.minimum) {
        const rel = s.exclusiveMinimum ? 'greater than' : 'greater than or equal to';
        this.errs.push(
          fieldInvalid(field, data, `${name} in body should be ${rel} ${goNumber(s.minimum)}`)
        );
      }
    }
  }

  #object(data: JsonObject, s: JSONSchemaProps, name: string, field: string): void {
    const n = Object.keys(data).length;
    if (s.maxProperties !== undefined && n > s.maxProperties) {
      this.errs.push(fieldTooMany(field, n, s.maxProperties));
    }
    if (s.minProperties !== undefined && n < s.minProperties) {
      this.errs.push(
        fieldInvalid(field, n, `${name} in body should have at least ${s.minProperties} properties`)
      );
    }
    if (s.additionalProperties === false) {
      for (const k of Object.keys(data)) {
        if (!propertyOf(s, k)) {
          this.errs.push(fieldInvalid(field, k, `${name}.${k} in body is a forbidden property`));
        }
      }
    }
    for (const k of s.required ?? []) {
      if (!Object.prototype.hasOwnProperty.call(data, k)) {
        this.errs.push(fieldRequired(this.#field(join(name, k))));
      }
    }
    const additional = additionalPropertiesOf(s);
    for (const [k, v] of Object.entries(data)) {
      const prop = propertyOf(s, k);
      if (prop) this.validate(v, prop, join(name, k));
      else if (additional) this.validate(v, additional, join(name, k));
    }
  }

  #junctors(data: unknown, s: JSONSchemaProps, name: string): void {
    const quoted = goQuote(name);
    if (s.allOf && s.allOf.length > 0) {
      let valid = 0;
      for (const sub of s.allOf) {
        const errs = this.#trial(data, sub, name);
        if (errs.length === 0) valid++;
        this.errs.push(...errs);
      }
      if (valid !== s.allOf.length) {
        const extra = valid === 0 ? '. Found none valid' : '';
        this.errs.push(
          fieldInvalid(
            this.#rootField(),
            '',
            `${quoted} must validate all the schemas (allOf)${extra}`
          )
        );
      }
    }
    if (s.anyOf && s.anyOf.length > 0) {
      let best: FieldError[] | undefined;
      let matched = false;
      for (const sub of s.anyOf) {
        const errs = this.#trial(data, sub, name);
        if (errs.length === 0) {
          matched = true;
          break;
        }
        if (!best || errs.length < best.length) best = errs;
      }
      if (!matched) {
        this.errs.push(
          fieldInvalid(this.#rootField(), '', `${quoted} must validate at least one schema (anyOf)`)
        );
        this.errs.push(...(best ?? []));
      }
    }
    if (s.oneOf && s.oneOf.length > 0) {
      let best: FieldError[] | undefined;
      let valid = 0;
      for (const sub of s.oneOf) {
        const errs = this.#trial(data, sub, name);
        if (errs.length === 0) valid++;
        else if (!best || errs.length < best.length) best = errs;
      }
      if (valid !== 1) {
        const extra = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
        this.errs.push(
          fieldInvalid(
            this.#rootField(),
            '',
            `${quoted} must validate one and only one schema (oneOf). ${extra}`
          )
        );
        if (valid === 0) this.errs.push(...(best ?? []));
      }
    }
    if (isJsonObject(s.not)) {
      if (this.#trial(data, s.not, name).length === 0) {
        this.errs.push(
          fieldInvalid(this.#rootField(), '', `${quoted} must not validate the schema (not)`)
        );
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// listtype.ValidateListSetsAndMaps

function childPath(parent: string, k: string): string {
  return parent === '' ? k : `${parent}.${k}`;
}

function validateListSetsAndMaps(p: string, s: JSONSchemaProps, obj: unknown): FieldError[] {
  if (!isJsonObject(obj) || typeof s !== 'object' || s === null) return [];
  const errs: FieldError[] = [];
  const additional = additionalPropertiesOf(s);
  if (additional) {
    for (const [k, v] of Object.entries(obj)) {
      errs.push(...listSetAndMaps(`${p}[${k}]`, additional, v));
    }
  }
  if (s.properties) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = propertyOf(s, k);
      if (sub) errs.push(...listSetAndMaps(childPath(p, k), sub, v));
    }
  }
  return errs;
}

function listSetAndMaps(p: string, s: JSONSchemaProps, obj: unknown): FieldError[] {
  if (Array.isArray(obj)) return listSetsAndMapsArray(p, s, obj);
  if (isJsonObject(obj)) return validateListSetsAndMaps(p, s, obj);
  return [];
}

function listSetsAndMapsArray(p: string, s: JSONSchemaProps, obj: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') {
    for (const i of nonUniqueIndices(obj)) errs.push(fieldDuplicate(`${p}[${i}]`, obj[i]));
  } else if (listType === 'map') {
    errs.push(...validateListMap(p, s, obj));
  }
  const items = itemsOf(s);
  if (items) obj.forEach((x, i) => errs.push(...listSetAndMaps(`${p}[${i}]`, items, x)));
  return errs;
}

/** The index of each value's second occurrence (validateListSet). */
function nonUniqueIndices(obj: unknown[]): number[] {
  if (obj.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  obj.forEach((x, i) => {
    const k = typeof x === 'object' && x !== null ? `c${canonicalJson(x)}` : `s${canonicalJson(x)}`;
    const times = seen.get(k);
    if (times === undefined) {
      seen.set(k, 1);
    } else {
      seen.set(k, times + 1);
      if (times === 1) out.push(i);
    }
  });
  return out;
}

function validateListMap(p: string, s: JSONSchemaProps, obj: unknown[]): FieldError[] {
  for (let i = 0; i < obj.length; i++) {
    const x = obj[i];
    if (x !== null && !isJsonObject(x)) {
      return [fieldInvalid(`${p}[${i}]`, x, 'must be an object for an array of list-type map')];
    }
  }
  if (obj.length <= 1) return [];
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  const keys = obj.map((x) => {
    const key: JsonObject = {};
    if (isJsonObject(x)) {
      for (const f of keyFields) {
        if (Object.prototype.hasOwnProperty.call(x, f)) key[f] = x[f];
      }
    }
    return key;
  });
  return nonUniqueIndices(keys).map((i) => fieldDuplicate(`${p}[${i}]`, keys[i]));
}

// ---------------------------------------------------------------------------------------------
// objectmeta.Validate (not at the resource root: the strategy validates that metadata)

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);

/** validation.IsDNS1035Label's messages. */
function isDNS1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035LabelRe.test(v)) {
    errs.push(
      `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${dns1035LabelFmt}')`
    );
  }
  return errs;
}

function validateEmbeddedResources(
  p: string,
  x: unknown,
  s: JSONSchemaProps | undefined
): FieldError[] {
  if (typeof s !== 'object' || s === null) return [];
  const errs: FieldError[] = [];
  if (isJsonObject(x)) {
    if (s['x-kubernetes-embedded-resource']) errs.push(...validateEmbeddedResource(p, x));
    const additional = additionalPropertiesOf(s);
    for (const [k, v] of Object.entries(x)) {
      const prop = propertyOf(s, k);
      if (prop) errs.push(...validateEmbeddedResources(childPath(p, k), v, prop));
      else if (s.additionalProperties !== undefined) {
        errs.push(...validateEmbeddedResources(`${p}[${k}]`, v, additional));
      }
    }
  } else if (Array.isArray(x)) {
    const items = itemsOf(s);
    x.forEach((v, i) => errs.push(...validateEmbeddedResources(`${p}[${i}]`, v, items)));
  }
  return errs;
}

function validateEmbeddedResource(p: string, x: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const child = (k: string): string => childPath(p, k);
  if (!Object.prototype.hasOwnProperty.call(x, 'apiVersion'))
    errs.push(fieldRequired(child('apiVersion')));
  if (!Object.prototype.hasOwnProperty.call(x, 'kind')) errs.push(fieldRequired(child('kind')));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') {
        errs.push(fieldInvalid(child(k), v, 'must be a string'));
      } else if (v === '') {
        errs.push(fieldInvalid(child(k), v, 'must not be empty'));
      } else if (v.split('/').length > 2) {
        errs.push(fieldInvalid(child(k), v, `unexpected GroupVersion string: ${v}`));
      }
    } else if (k === 'kind') {
      if (typeof v !== 'string') {
        errs.push(fieldInvalid(child(k), v, 'must be a string'));
      } else if (v === '') {
        errs.push(fieldInvalid(child(k), v, 'must not be empty'));
      } else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) {
          errs.push(
            fieldInvalid(
              child(k),
              v,
              `may have mixed case, but should otherwise match: ${msgs.join(',')}`
            )
          );
        }
      }
    } else if (k === 'metadata') {
      if (v !== null && !isJsonObject(v)) {
        errs.push(fieldInvalid(child(k), v, 'must be of type object'));
        continue;
      }
      const meta: JsonObject = { ...(v ?? {}) };
      if (typeof meta['name'] !== 'string' || meta['name'] === '') meta['name'] = 'fakename';
      const ns = meta['namespace'];
      const metaPath = p === '' ? newPath('metadata') : pathFromString(child('metadata'));
      errs.push(
        ...validateObjectMeta(
          meta,
          { namespaced: typeof ns === 'string' && ns.length > 0, nameRule: 'path-segment' },
          metaPath
        )
      );
    }
  }
  return errs;
}

/** A FieldPath whose text is `p` (a path already rendered). */
function pathFromString(p: string): FieldPath {
  return newPath(p);
}
