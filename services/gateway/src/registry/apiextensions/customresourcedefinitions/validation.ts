// Over 600 lines on purpose: upstream's validation.go in one file, create, update and status forms
// sharing the spec checks, so the two read side by side.
// CustomResourceDefinition validation, as k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation.go (ValidateCustomResourceDefinition, its Update
// and Status forms) with upstream's messages. Paths are those of the v1 object the client sent
// (spec.versions[i].schema.openAPIV3Schema, spec.conversion.webhook.clientConfig) where
// upstream reports the internal version's. The schema's structural rules, its defaults and its
// x-kubernetes-validations rules are checked by the libraries of @orch/apimachinery/apiextensions
// through `schemaChecks`.
import {
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  fieldTooMany,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { JSONSchemaProps } from '@orch/apimachinery/apiextensions';
import { isDNS1123Subdomain, sameJson } from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  isDNS1035Label,
  validateCABundle,
  validateWebhookService,
  validateWebhookURL,
} from '../../admissionregistration/validate-webhook-configuration.js';
import { validateSchemaShape } from './validate-schema-shape.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObject(v) ? v : {});
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export const maxSelectableFields = 8;
const printerColumnDatatypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = [
  'byte',
  'date',
  'date-time',
  'double',
  'float',
  'int32',
  'int64',
  'password',
];
const acceptedConversionReviewVersions = ['v1', 'v1beta1'];
/** Fields of the root schema allowed with the status subresource (upstream allowedFieldsAtRootSchema, as JSON keys). */
const allowedAtRootSchema = [
  'description',
  'type',
  'format',
  'title',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'required',
  'items',
  'properties',
  'externalDocs',
  'example',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-validations',
];
/** Upstream's list, as Go field names, in its messages. */
const allowedAtRootSchemaGoNames =
  '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';

/**
 * The checks of a version's schema that the apiextensions libraries make: structural rules
 * (validateStructuralSchema), defaults (pruned and valid), and x-kubernetes-validations
 * (validateSchemaRules). Each returns every violation under `path`.
 */
export interface SchemaChecks {
  structural(schema: JSONSchemaProps, path: FieldPath): FieldError[];
  defaults(schema: JSONSchemaProps, path: FieldPath): FieldError[];
  /** x-kubernetes-validations: compiled, typed and costed (crd-cel's validateSchemaRules). */
  rules?(schema: JSONSchemaProps, path: FieldPath): FieldError[];
}

export interface CrdValidationOptions {
  /** scope and names.kind are immutable once the CRD was Established. */
  requireImmutableNames: boolean;
  requireRecognizedConversionReviewVersion: boolean;
  /** An invalid caBundle is allowed on create, before Established, or if the old one was invalid. */
  allowInvalidCABundle: boolean;
  /** Versions (by name, '' for none) whose selectable fields may exceed the limit (unchanged since). */
  allowTooManySelectableFields: ReadonlySet<string>;
}

const createOptions: CrdValidationOptions = {
  requireImmutableNames: false,
  requireRecognizedConversionReviewVersion: true,
  allowInvalidCABundle: true,
  allowTooManySelectableFields: new Set(),
};

/** ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
export function validateNames(names: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const label = (key: string, mixedCase: boolean): void => {
    const v = text(names[key]);
    if (v === '') return;
    const e = isDNS1035Label(mixedCase ? v.toLowerCase() : v);
    if (e.length > 0)
      errs.push(
        fieldInvalid(
          path.child(key),
          v,
          mixedCase
            ? `may have mixed case, but should otherwise match: ${e.join(',')}`
            : e.join(',')
        )
      );
  };
  label('plural', false);
  label('singular', false);
  label('kind', true);
  label('listKind', true);
  list(names['shortNames']).forEach((s, i) => {
    const e = isDNS1035Label(text(s));
    if (e.length > 0) errs.push(fieldInvalid(path.child('shortNames').index(i), s, e.join(',')));
  });
  const kind = text(names['kind']);
  if (kind !== '' && kind === text(names['listKind']))
    errs.push(fieldInvalid(path.child('listKind'), kind, 'kind and listKind may not be the same'));
  list(names['categories']).forEach((c, i) => {
    const e = isDNS1035Label(text(c));
    if (e.length > 0) errs.push(fieldInvalid(path.child('categories').index(i), c, e.join(',')));
  });
  return errs;
}

/** validateSimpleJSONPath. */
function validateSimpleJSONPath(s: string, path: FieldPath): FieldError[] {
  if (s === '') return [fieldInvalid(path, s, 'must not be empty')];
  if (!s.startsWith('.'))
    return [fieldInvalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceColumnDefinition. */
function validateColumn(col: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (text(col['name']) === '') errs.push(fieldRequired(path.child('name')));
  const type = text(col['type']);
  const types = `must be one of ${printerColumnDatatypes.join(',')}`;
  if (type === '') errs.push(fieldRequired(path.child('type'), types));
  else if (!printerColumnDatatypes.includes(type))
    errs.push(fieldInvalid(path.child('type'), type, types));
  const format = text(col['format']);
  if (format !== '' && !columnFormats.includes(format))
    errs.push(
      fieldInvalid(path.child('format'), format, `must be one of ${columnFormats.join(',')}`)
    );
  const jsonPath = text(col['jsonPath']);
  if (jsonPath === '') errs.push(fieldRequired(path.child('jsonPath')));
  else errs.push(...validateSimpleJSONPath(jsonPath, path.child('jsonPath')));
  return errs;
}

/** ValidateCustomResourceDefinitionSubresources. */
function validateSubresources(sub: Json | undefined, path: FieldPath): FieldError[] {
  const scale = sub && isObject(sub['scale']) ? sub['scale'] : undefined;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const under = (key: string, prefixes: string[], required: boolean, what: string): void => {
    const p = path.child('scale', key);
    const v = text(scale[key]);
    if (v === '') {
      if (required) errs.push(fieldRequired(p));
      return;
    }
    const e = validateSimpleJSONPath(v, p);
    if (e.length > 0) errs.push(...e);
    else if (!prefixes.some((x) => v.startsWith(x))) errs.push(fieldInvalid(p, v, what));
  };
  under('specReplicasPath', ['.spec.'], true, 'should be a json path under .spec');
  under('statusReplicasPath', ['.status.'], true, 'should be a json path under .status');
  under(
    'labelSelectorPath',
    ['.spec.', '.status.'],
    false,
    'should be a json path under either .spec or .status'
  );
  return errs;
}

/**
 * cel.ValidFieldPath without array notation: the schema node a selectable field's jsonPath
 * names, or the reason it names none.
 */
export function resolveFieldPath(
  jsonPath: string,
  schema: JSONSchemaProps
): { path: string[]; schema: JSONSchemaProps } | { error: string } {
  const parts: string[] = [];
  let node: JSONSchemaProps = schema;
  let rest = jsonPath;
  while (rest !== '') {
    if (rest.startsWith('[')) return { error: 'array notation is not allowed' };
    if (!rest.startsWith('.')) {
      const tok = /^[^.[\]]+/.exec(rest)?.[0] ?? rest[0] ?? '';
      return { error: `expected [ or . but got: ${tok}` };
    }
    const m = /^\.([^.[\]]*)/.exec(rest);
    const name = m?.[1] ?? '';
    if (name === '') return { error: 'unexpected end of JSON path' };
    rest = rest.slice(1 + name.length);
    if (node.properties) {
      const next = node.properties[name];
      if (!next) return { error: 'does not refer to a valid field' };
      node = next;
    } else if (isObject(node.additionalProperties)) {
      node = node.additionalProperties as JSONSchemaProps;
    } else return { error: 'does not refer to a valid field' };
    parts.push(name);
  }
  return { path: parts, schema: node };
}

/** ValidateCustomResourceSelectableFields. */
function validateSelectableFields(
  fields: unknown[],
  schema: JSONSchemaProps,
  path: FieldPath,
  allowTooMany: boolean
): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = path.index(i).child('jsonPath');
    const jsonPath = text(obj(f)['jsonPath']);
    if (jsonPath === '') {
      errs.push(fieldRequired(p));
      return;
    }
    const found = resolveFieldPath(jsonPath, schema);
    if ('error' in found) {
      errs.push(fieldInvalid(p, jsonPath, `is an invalid path: ${found.error}`));
      return;
    }
    if (found.path[0] === 'metadata')
      errs.push(fieldInvalid(p, jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(found.schema.type ?? ''))
      errs.push(
        fieldInvalid(
          p,
          jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'
        )
      );
    const key = found.path.join('.');
    if (unique.has(key)) errs.push(fieldDuplicate(p, jsonPath));
    else unique.add(key);
  });
  if (unique.size > maxSelectableFields && !allowTooMany)
    errs.push(fieldTooMany(path, unique.size, maxSelectableFields));
  return errs;
}

/** validateDeprecationWarning. */
function validateDeprecationWarning(version: Json): string[] {
  const warning = version['deprecationWarning'];
  if (version['deprecated'] !== true && warning !== undefined)
    return ['can only be set for deprecated versions'];
  if (typeof warning !== 'string') return [];
  const out: string[] = [];
  if (Buffer.byteLength(warning) > 256) out.push('must be <= 256 characters long');
  if (warning.length === 0) out.push('must not be an empty string');
  let i = 0;
  for (const ch of warning) {
    // Go's unicode.IsPrint and IsControl: letters, marks, numbers, punctuation, symbols and the ASCII space.
    if (/\p{Cc}/u.test(ch)) {
      out.push(
        `must only contain printable UTF-8 characters; control character found at index ${i}`
      );
      break;
    }
    if (ch !== ' ' && !/[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(ch)) {
      out.push(
        `must only contain printable UTF-8 characters; non-printable character found at index ${i}`
      );
      break;
    }
    i += Buffer.byteLength(ch);
  }
  return out;
}

/** validateCustomResourceDefinitionValidation: the root restrictions, then the libraries' checks. */
function validateVersionSchema(
  schemaHolder: Json | undefined,
  statusEnabled: boolean,
  path: FieldPath,
  checks: SchemaChecks | undefined
): FieldError[] {
  if (!schemaHolder || schemaHolder['openAPIV3Schema'] === undefined) return [];
  const p = path.child('openAPIV3Schema');
  const raw = schemaHolder['openAPIV3Schema'];
  const shape = validateSchemaShape(raw, p);
  if (shape.length > 0) return shape;
  const schema = raw as JSONSchemaProps & Json;
  const errs: FieldError[] = [];
  if (statusEnabled) {
    for (const [key, value] of Object.entries(schema)) {
      if (value === undefined || value === '' || value === false || value === 0) continue;
      if (key === 'type') {
        if (value !== 'object') {
          errs.push(
            fieldInvalid(
              path.child('openAPIV3Schema.type'),
              value,
              'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'
            )
          );
          break;
        }
        continue;
      }
      if (!allowedAtRootSchema.includes(key)) {
        errs.push(
          fieldInvalid(
            p,
            schema,
            `only ${allowedAtRootSchemaGoNames} fields are allowed at the root of the schema if the status subresource is enabled`
          )
        );
        break;
      }
    }
  }
  if (schema.nullable === true)
    errs.push(
      fieldForbidden(path.child('openAPIV3Schema.nullable'), 'nullable cannot be true at the root')
    );
  if (!checks) return errs;
  const structural = checks.structural(schema, p);
  errs.push(...structural);
  // Defaults and rules are checked only on a structural schema, as upstream does.
  if (structural.length === 0) {
    const defaults = checks.defaults(schema, p);
    errs.push(...defaults);
    if (defaults.length === 0 && checks.rules) errs.push(...checks.rules(schema, p));
  }
  return errs;
}

/** validateConversionReviewVersions. */
function validateConversionReviewVersions(
  versions: unknown[],
  requireRecognized: boolean,
  path: FieldPath
): FieldError[] {
  if (versions.length === 0) return [fieldRequired(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((raw, i) => {
    const v = text(raw);
    if (seen.has(v)) {
      errs.push(fieldInvalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(fieldInvalid(path.index(i), v, e));
    if (acceptedConversionReviewVersions.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted)
    errs.push(
      fieldInvalid(
        path,
        versions,
        `must include at least one of ${acceptedConversionReviewVersions.join(', ')}`
      )
    );
  return errs;
}

/** validateCustomResourceConversion. */
function validateConversion(
  conversion: Json | undefined,
  opts: CrdValidationOptions,
  path: FieldPath
): FieldError[] {
  if (!conversion) return [];
  const errs: FieldError[] = [];
  const strategy = text(conversion['strategy']);
  const sp = path.child('strategy');
  if (strategy === '') errs.push(fieldRequired(sp));
  else if (strategy !== 'None' && strategy !== 'Webhook')
    errs.push(fieldNotSupported(sp, strategy, ['None', 'Webhook']));
  const webhook = isObject(conversion['webhook']) ? conversion['webhook'] : undefined;
  const wp = path.child('webhook');
  const cc = webhook && isObject(webhook['clientConfig']) ? webhook['clientConfig'] : undefined;
  const reviewVersions = list(webhook?.['conversionReviewVersions']);
  if (strategy === 'Webhook') {
    const ccp = wp.child('clientConfig');
    if (!cc) errs.push(fieldRequired(ccp, 'required when strategy is set to Webhook'));
    else {
      const hasURL = cc['url'] !== undefined;
      const hasService = isObject(cc['service']);
      if (hasURL === hasService)
        errs.push(fieldRequired(ccp, 'exactly one of url or service is required'));
      else if (hasURL) errs.push(...validateWebhookURL(text(cc['url']), ccp.child('url')));
      else errs.push(...validateWebhookService(cc['service'] as Json, ccp.child('service')));
      if (!opts.allowInvalidCABundle)
        errs.push(...validateCABundle(cc['caBundle'], ccp.child('caBundle')));
    }
    errs.push(
      ...validateConversionReviewVersions(
        reviewVersions,
        opts.requireRecognizedConversionReviewVersion,
        wp.child('conversionReviewVersions')
      )
    );
  } else {
    if (cc)
      errs.push(
        fieldForbidden(
          wp.child('clientConfig'),
          'should not be set when strategy is not set to Webhook'
        )
      );
    if (reviewVersions.length > 0)
      errs.push(
        fieldForbidden(
          wp.child('conversionReviewVersions'),
          'should not be set when strategy is not set to Webhook'
        )
      );
  }
  return errs;
}

function schemaOf(version: Json): JSONSchemaProps | undefined {
  const s = obj(version['schema'])['openAPIV3Schema'];
  return isObject(s) ? (s as JSONSchemaProps) : undefined;
}

/** Whether a schema, any node of it, has a `default` (upstream specHasDefaults). */
function schemaHas(s: unknown, pred: (n: Json) => boolean): boolean {
  if (!isObject(s)) return false;
  if (pred(s)) return true;
  const kids: unknown[] = [];
  const items = s['items'];
  if (Array.isArray(items)) kids.push(...items);
  else kids.push(items);
  for (const k of ['allOf', 'oneOf', 'anyOf']) kids.push(...list(s[k]));
  kids.push(s['not'], s['additionalProperties'], s['additionalItems']);
  for (const k of ['properties', 'patternProperties', 'definitions', 'dependencies'])
    kids.push(...Object.values(obj(s[k])));
  return kids.some((k) => schemaHas(k, pred));
}

/** validateCustomResourceDefinitionSpec. */
function validateSpec(
  spec: Json,
  opts: CrdValidationOptions,
  checks: SchemaChecks | undefined,
  path: FieldPath
): FieldError[] {
  const errs: FieldError[] = [];
  const group = text(spec['group']);
  const gp = path.child('group');
  if (group === '') errs.push(fieldRequired(gp));
  else {
    const e = isDNS1123Subdomain(group);
    if (e.length > 0) errs.push(fieldInvalid(gp, group, e.join(',')));
    else if (group.split('.').length < 2)
      errs.push(fieldInvalid(gp, group, 'should be a domain with at least one dot'));
  }
  const scope = text(spec['scope']);
  if (scope === '') errs.push(fieldRequired(path.child('scope')));
  else if (scope !== 'Cluster' && scope !== 'Namespaced')
    errs.push(fieldNotSupported(path.child('scope'), scope, ['Cluster', 'Namespaced']));

  const versions = list(spec['versions']).map(obj);
  const vp = path.child('versions');
  // openAPIV3Schema is required in every version (requireOpenAPISchema).
  versions.forEach((v, i) => {
    if (!isObject(v['schema']) || v['schema']['openAPIV3Schema'] === undefined)
      errs.push(fieldRequired(vp.index(i).child('schema', 'openAPIV3Schema')));
  });
  const preserve = spec['preserveUnknownFields'] === true;
  if (preserve && versions.some((v) => schemaHas(schemaOf(v), (n) => n['default'] !== undefined)))
    errs.push(
      fieldInvalid(
        path.child('preserveUnknownFields'),
        true,
        'must be false in order to use defaults in the schema'
      )
    );

  let storageCount = 0;
  const names = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const p = vp.index(i);
    if (v['storage'] === true) storageCount++;
    const name = text(v['name']);
    if (names.has(name)) unique = false;
    else names.add(name);
    const e = isDNS1035Label(name);
    if (e.length > 0) errs.push(fieldInvalid(p.child('name'), name, e.join(',')));
    // validateCustomResourceDefinitionVersion
    for (const m of validateDeprecationWarning(v))
      errs.push(fieldInvalid(p.child('deprecationWarning'), v['deprecationWarning'], m));
    const sub = isObject(v['subresources']) ? v['subresources'] : undefined;
    const statusEnabled = sub !== undefined && isObject(sub['status']);
    errs.push(
      ...validateVersionSchema(
        isObject(v['schema']) ? v['schema'] : undefined,
        statusEnabled,
        p.child('schema'),
        checks
      )
    );
    errs.push(...validateSubresources(sub, p.child('subresources')));
    list(v['additionalPrinterColumns']).forEach((c, j) =>
      errs.push(...validateColumn(obj(c), p.child('additionalPrinterColumns').index(j)))
    );
    const selectable = list(v['selectableFields']);
    if (selectable.length > 0) {
      const schema = schemaOf(v);
      if (!schema)
        errs.push(
          fieldInvalid(
            p.child('selectableFields'),
            '',
            'may only be set when `version.schema.openAPIV3Schema` is not included'
          )
        );
      else
        errs.push(
          ...validateSelectableFields(
            selectable,
            schema,
            p.child('selectableFields'),
            opts.allowTooManySelectableFields.has(name)
          )
        );
    }
  });
  // Upstream's message for per-version fields identical in every version concerns the
  // v1beta1 top-level fields, which v1 does not have: it never applies to v1 objects.
  if (!unique) errs.push(fieldInvalid(vp, spec['versions'], 'must contain unique version names'));
  if (storageCount !== 1)
    errs.push(
      fieldInvalid(vp, spec['versions'], 'must have exactly one version marked as storage version')
    );

  const namesObj = obj(spec['names']);
  const np = path.child('names');
  for (const key of ['plural', 'singular', 'kind', 'listKind'])
    if (text(namesObj[key]) === '') errs.push(fieldRequired(np.child(key)));
  errs.push(...validateNames(namesObj, np));

  const conversion = isObject(spec['conversion']) ? spec['conversion'] : undefined;
  const strategy = text(conversion?.['strategy']);
  if (conversion && strategy !== 'None' && preserve)
    errs.push(
      fieldInvalid(
        path.child('conversion', 'strategy'),
        strategy,
        'must be None if spec.preserveUnknownFields is true'
      )
    );
  errs.push(...validateConversion(conversion, opts, path.child('conversion')));
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions. */
export function validateStoredVersions(
  stored: unknown[],
  versions: Json[],
  path: FieldPath
): FieldError[] {
  if (stored.length === 0)
    return [fieldInvalid(path, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const left = new Map<string, number>();
  stored.forEach((v, i) => left.set(text(v), i));
  for (const v of versions) {
    const name = text(v['name']);
    const has = left.has(name);
    if (v['storage'] === true && !has)
      errs.push(fieldInvalid(path, stored, `must have the storage version ${name}`));
    if (has) left.delete(name);
  }
  for (const [v, i] of left)
    errs.push(
      fieldInvalid(
        path.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`
      )
    );
  return errs;
}

/** metadata.name must be `<plural>.<group>` (ValidateCustomResourceDefinition's name rule). */
function validateName(crd: ApiObject): FieldError[] {
  const spec = obj(crd['spec']);
  const required = `${text(obj(spec['names'])['plural'])}.${text(spec['group'])}`;
  if (crd.metadata.name === required) return [];
  return [
    fieldInvalid(
      newPath('metadata', 'name'),
      crd.metadata.name,
      'must be spec.names.plural+"."+spec.group'
    ),
  ];
}

export const apiApprovedAnnotation = 'api-approved.kubernetes.io';

/**
 * IsProtectedCommunityGroup: upstream's k8s.io and kubernetes.io (CRDs keep their groups here),
 * and this server's own orch.io.
 */
export function isProtectedCommunityGroup(group: string): boolean {
  return ['k8s.io', 'kubernetes.io', 'orch.io'].some((d) => group === d || group.endsWith(`.${d}`));
}

type ApprovalState = 'invalid' | 'approved' | 'bypassed' | 'missing';

/** GetAPIApprovalState. */
function approvalState(annotations: Json): { state: ApprovalState; reason: string } {
  const a = text(annotations[apiApprovedAnnotation]);
  const see = 'see https://github.com/kubernetes/enhancements/pull/1111';
  if (a === '')
    return {
      state: 'missing',
      reason: `protected groups must have approval annotation "${apiApprovedAnnotation}", ${see}`,
    };
  if (a.startsWith('unapproved')) return { state: 'bypassed', reason: '' };
  // url.ParseRequestURI with a scheme and a host.
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+/i.test(a)) return { state: 'approved', reason: '' };
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation "${apiApprovedAnnotation}" with either a URL or a reason starting with "unapproved", ${see}`,
  };
}

/** validateAPIApproval: a CRD of a protected group names its API review, unless the state did not change. */
function validateAPIApproval(crd: ApiObject, old?: ApiObject): FieldError[] {
  if (!isProtectedCommunityGroup(text(obj(crd['spec'])['group']))) return [];
  const next = approvalState(obj(crd.metadata.annotations));
  if (old && approvalState(obj(old.metadata.annotations)).state === next.state) return [];
  const path = newPath('metadata', 'annotations').key(apiApprovedAnnotation);
  if (next.state === 'missing') return [fieldRequired(path, next.reason)];
  if (next.state === 'invalid')
    return [fieldInvalid(path, obj(crd.metadata.annotations)[apiApprovedAnnotation], next.reason)];
  return [];
}

/** validatePreserveUnknownFields: v1 does not allow turning it on. */
function validatePreserveUnknownFields(crd: ApiObject, old?: ApiObject): FieldError[] {
  if (old && obj(old['spec'])['preserveUnknownFields'] === true) return [];
  if (obj(crd['spec'])['preserveUnknownFields'] !== true) return [];
  return [
    fieldInvalid(
      newPath('spec', 'preserveUnknownFields'),
      true,
      'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'
    ),
  ];
}

function validateStatus(crd: ApiObject): FieldError[] {
  const status = obj(crd['status']);
  return validateNames(obj(status['acceptedNames']), newPath('status', 'acceptedNames'));
}

function common(
  crd: ApiObject,
  opts: CrdValidationOptions,
  checks: SchemaChecks | undefined,
  old?: ApiObject
): FieldError[] {
  const spec = obj(crd['spec']);
  return [
    ...validateSpec(spec, opts, checks, newPath('spec')),
    ...validateStatus(crd),
    ...validateStoredVersions(
      list(obj(crd['status'])['storedVersions']),
      list(spec['versions']).map(obj),
      newPath('status', 'storedVersions')
    ),
    ...validateAPIApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  ];
}

/** ValidateCustomResourceDefinition. */
export function validateCustomResourceDefinition(
  crd: ApiObject,
  checks?: SchemaChecks
): FieldError[] {
  return [...validateName(crd), ...common(crd, createOptions, checks)];
}

export const isConditionTrue = (crd: ApiObject, type: string): boolean =>
  list(obj(crd['status'])['conditions']).some(
    (c) => obj(c)['type'] === type && obj(c)['status'] === 'True'
  );

/** ValidateCustomResourceDefinitionUpdate. */
export function validateCustomResourceDefinitionUpdate(
  crd: ApiObject,
  old: ApiObject,
  checks?: SchemaChecks
): FieldError[] {
  const spec = obj(crd['spec']);
  const oldSpec = obj(old['spec']);
  const established = isConditionTrue(old, 'Established');
  const oldConversion = obj(oldSpec['conversion']);
  const oldReview = list(obj(oldConversion['webhook'])['conversionReviewVersions']);
  const oldCA = obj(obj(oldConversion['webhook'])['clientConfig'])['caBundle'];
  const tooMany = new Set<string>();
  const oldVersions = new Map(list(oldSpec['versions']).map((v) => [text(obj(v)['name']), obj(v)]));
  for (const v of list(spec['versions']).map(obj)) {
    const before = oldVersions.get(text(v['name']));
    const fields = list(before?.['selectableFields']);
    if (fields.length > maxSelectableFields && sameJson(fields, list(v['selectableFields'])))
      tooMany.add(text(v['name']));
  }
  const opts: CrdValidationOptions = {
    requireImmutableNames: established,
    requireRecognizedConversionReviewVersion:
      oldReview.length === 0 ||
      oldReview.some((v) => acceptedConversionReviewVersions.includes(text(v))),
    allowInvalidCABundle:
      !established ||
      (oldCA !== undefined &&
        oldCA !== '' &&
        validateCABundle(oldCA, newPath('caBundle')).length > 0),
    allowTooManySelectableFields: tooMany,
  };
  const errs = common(crd, opts, checks, old);
  const immutable = (path: FieldPath, a: unknown, b: unknown): void => {
    if (!sameJson(a ?? '', b ?? '')) errs.push(fieldInvalid(path, a, 'field is immutable'));
  };
  const names = obj(spec['names']);
  const oldNames = obj(oldSpec['names']);
  if (opts.requireImmutableNames) {
    immutable(newPath('spec', 'scope'), spec['scope'], oldSpec['scope']);
    immutable(newPath('spec', 'names', 'kind'), names['kind'], oldNames['kind']);
  }
  immutable(newPath('spec', 'group'), spec['group'], oldSpec['group']);
  immutable(newPath('spec', 'names', 'plural'), names['plural'], oldNames['plural']);
  return errs;
}

/** ValidateUpdateCustomResourceDefinitionStatus: only status.acceptedNames is checked. */
export function validateCustomResourceDefinitionStatusUpdate(crd: ApiObject): FieldError[] {
  return validateStatus(crd);
}
