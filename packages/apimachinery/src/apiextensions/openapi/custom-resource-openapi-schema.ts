// The OpenAPI schema of a custom resource version, v2 or v3 (k8s apiextensions-apiserver
// pkg/controller/openapi/builder/builder.go buildKubeNative and buildListSchema, with the v2
// conversion of pkg/controller/openapi/v2/conversion.go and the int-or-string unfolding of
// pkg/apiserver/schema/unfold.go). The kind's schema keeps what a structural schema holds
// (descriptions, which `kubectl explain` prints; types, formats, value validations; the merge
// and embedding extensions; x-kubernetes-validations) and gains apiVersion, kind, metadata (an
// ObjectMeta reference) and x-kubernetes-group-version-kind. For v2 what Swagger 2.0 and kubectl
// cannot read is stripped: the junctors allOf/anyOf/oneOf/not, nullable (the type goes with it),
// the items and properties of preserve-unknown-fields nodes, and defaults (upstream's
// PruneDefaults on the published v2 definitions).
import type { CustomResourceDefinition, JSONSchemaProps } from '../types.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface CustomResourceOpenAPIOptions {
  /** Swagger 2.0 (`#/definitions/` references, v2 stripping) rather than OpenAPI 3.0. */
  v2: boolean;
}

const objectMetaName = 'io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const listMetaName = 'io.orch.apimachinery.pkg.apis.meta.v1.ListMeta';

const apiVersionDescription =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const kindDescription =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const embeddedApiVersionDescription =
  'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const embeddedKindDescription =
  'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const objectMetadataDescription =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const listMetadataDescription =
  'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** A reference to a definition, with a description beside it (v3 wraps it in allOf, as kube-openapi). */
export function definitionRef(name: string, v2: boolean, description?: string): JsonObject {
  const $ref = v2 ? `#/definitions/${name}` : `#/components/schemas/${name}`;
  if (description === undefined) return { $ref };
  return v2 ? { description, $ref } : { description, allOf: [{ $ref }] };
}

function typeMetaProperty(description: string): JsonObject {
  return { description, type: 'string' };
}

// The keys of a structural schema (structuralschema.Structural and its ValueValidation),
// copied as they are; the nested ones are converted below.
const valueKeys = [
  'description',
  'type',
  'format',
  'title',
  'default',
  'example',
  'externalDocs',
  'nullable',
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
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
] as const;

/** Structural.ToKubeOpenAPI: a deep copy of the structural parts of a schema as plain JSON. */
function toOpenAPI(s: JSONSchemaProps): JsonObject {
  const out: JsonObject = {};
  for (const key of valueKeys) {
    const v = s[key];
    if (v === undefined) continue;
    // Falsy extensions are what the structural schema leaves out (its fields are plain bools).
    if (v === false && (key.startsWith('x-kubernetes-') || key === 'nullable')) continue;
    out[key] = structuredClone(v) as Json;
  }
  if (s.items !== undefined && !Array.isArray(s.items)) out['items'] = toOpenAPI(s.items);
  if (s.properties !== undefined) {
    const props: JsonObject = {};
    for (const [k, v] of Object.entries(s.properties)) props[k] = toOpenAPI(v);
    out['properties'] = props;
  }
  if (s.additionalProperties !== undefined)
    out['additionalProperties'] =
      typeof s.additionalProperties === 'boolean'
        ? s.additionalProperties
        : toOpenAPI(s.additionalProperties);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (list !== undefined) out[key] = list.map(toOpenAPI);
  }
  if (s.not !== undefined) out['not'] = toOpenAPI(s.not);
  return out;
}

const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Visits a node and then its structural children (properties, items, additionalProperties). */
function visit(s: JsonObject, fn: (s: JsonObject) => void): void {
  fn(s);
  const props = s['properties'];
  if (isObject(props)) for (const v of Object.values(props)) if (isObject(v)) visit(v, fn);
  const items = s['items'];
  if (isObject(items)) visit(items, fn);
  const additional = s['additionalProperties'];
  if (isObject(additional)) visit(additional, fn);
}

function isTypeOnly(s: Json | undefined, type: string): boolean {
  return isObject(s) && s['type'] === type;
}

const intOrStringAnyOf = (s: Json | undefined): boolean =>
  Array.isArray(s) && s.length === 2 && isTypeOnly(s[0], 'integer') && isTypeOnly(s[1], 'string');

/**
 * Unfold: an x-kubernetes-int-or-string node gets `anyOf: [{type: integer}, {type: string}]`
 * (prepended to allOf when it has an anyOf of its own), unless it spells that out already.
 */
function unfold(s: JsonObject): void {
  visit(s, (n) => {
    if (n['x-kubernetes-int-or-string'] !== true) return;
    const allOf = n['allOf'];
    const firstAllOf = Array.isArray(allOf) && isObject(allOf[0]) ? allOf[0] : undefined;
    if (intOrStringAnyOf(n['anyOf']) || (firstAllOf && intOrStringAnyOf(firstAllOf['anyOf'])))
      return;
    const pattern: Json[] = [{ type: 'integer' }, { type: 'string' }];
    if (n['anyOf'] === undefined) n['anyOf'] = pattern;
    else n['allOf'] = [{ anyOf: pattern }, ...(Array.isArray(allOf) ? allOf : [])];
  });
}

/** ToStructuralOpenAPIV2, and PruneDefaults on what is published as v2. */
function toV2(s: JsonObject): void {
  visit(s, (n) => {
    for (const key of ['allOf', 'oneOf', 'anyOf', 'not']) delete n[key];
    delete n['default'];
    if (n['nullable'] === true) {
      delete n['type'];
      delete n['nullable'];
      delete n['items'];
      delete n['properties'];
    }
    const preserve = n['x-kubernetes-preserve-unknown-fields'] === true;
    if (preserve) {
      delete n['items'];
      delete n['properties'];
    }
    if (n['items'] === undefined && n['type'] === 'array') delete n['type'];
    if (preserve && n['type'] === 'object') delete n['type'];
    const required = n['required'];
    const props = n['properties'];
    if (Array.isArray(required) && isObject(props)) {
      const kept = required.filter((r) => {
        const p = typeof r === 'string' ? props[r] : undefined;
        return !(isObject(p) && p['nullable'] === true);
      });
      if (kept.length === 0) delete n['required'];
      else n['required'] = kept;
    }
    const additional = n['additionalProperties'];
    if (isObject(additional) && additional['nullable'] === true) delete n['required'];
  });
}

/**
 * addEmbeddedProperties: an x-kubernetes-embedded-resource object gets apiVersion, kind and
 * metadata, apiVersion and kind required (not under preserve-unknown-fields in v2, where
 * kubectl would then refuse the unknown fields).
 */
function addEmbeddedProperties(s: JsonObject, v2: boolean): void {
  visit(s, (n) => {
    if (v2 && n['x-kubernetes-preserve-unknown-fields'] === true) return;
    if (n['x-kubernetes-embedded-resource'] !== true) return;
    const props = isObject(n['properties']) ? n['properties'] : {};
    props['apiVersion'] = typeMetaProperty(embeddedApiVersionDescription);
    props['kind'] = typeMetaProperty(embeddedKindDescription);
    props['metadata'] = definitionRef(objectMetaName, v2, objectMetadataDescription);
    n['properties'] = props;
    const required = Array.isArray(n['required']) ? n['required'] : [];
    for (const r of ['kind', 'apiVersion']) if (!required.includes(r)) required.push(r);
    n['required'] = required;
  });
}

function versionOf(crd: CustomResourceDefinition, version: string) {
  const v = crd.spec.versions.find((x) => x.name === version);
  if (!v)
    throw new Error(
      `version ${version} not found in CustomResourceDefinition ${crd.metadata.name}`
    );
  return v;
}

function gvkExtension(group: string, version: string, kind: string): Json {
  return [{ group, kind, version }];
}

function selectableFieldsExtension(
  crd: CustomResourceDefinition,
  version: string
): Json | undefined {
  const fields = versionOf(crd, version).selectableFields ?? [];
  if (fields.length === 0) return undefined;
  return fields.map((f) => ({ fieldPath: f.jsonPath.replace(/^\./, '') }));
}

/**
 * The schema of a CRD version's kind (builder.buildKubeNative): the version's openAPIV3Schema
 * with apiVersion, kind and metadata; an open `type: object` when the version has no schema,
 * or in v2 when its root preserves unknown fields (kubectl would otherwise reject them).
 */
export function customResourceOpenAPISchema(
  crd: CustomResourceDefinition,
  version: string,
  opts: CustomResourceOpenAPIOptions
): JsonObject {
  const { group, names } = crd.spec;
  const schema = versionOf(crd, version).schema?.openAPIV3Schema;
  let ret: JsonObject;
  if (
    schema === undefined ||
    (opts.v2 &&
      (schema['x-kubernetes-preserve-unknown-fields'] === true || crd.spec.preserveUnknownFields))
  ) {
    ret = { type: 'object' };
  } else {
    ret = toOpenAPI(schema);
    unfold(ret);
    if (opts.v2) toV2(ret);
    const props = isObject(ret['properties']) ? ret['properties'] : {};
    props['metadata'] = definitionRef(objectMetaName, opts.v2, objectMetadataDescription);
    props['apiVersion'] = typeMetaProperty(apiVersionDescription);
    props['kind'] = typeMetaProperty(kindDescription);
    ret['properties'] = props;
    addEmbeddedProperties(ret, opts.v2);
  }
  ret['x-kubernetes-group-version-kind'] = gvkExtension(group, version, names.kind);
  const selectable = selectableFieldsExtension(crd, version);
  if (selectable !== undefined) ret['x-kubernetes-selectable-fields'] = selectable;
  return ret;
}

export interface CustomResourceListOpenAPIOptions extends CustomResourceOpenAPIOptions {
  /** The definition name the kind's schema is published under. */
  kindDefinition: string;
}

/** The schema of a CRD version's list kind (builder.buildListSchema). */
export function customResourceListOpenAPISchema(
  crd: CustomResourceDefinition,
  version: string,
  opts: CustomResourceListOpenAPIOptions
): JsonObject {
  const { group, names } = crd.spec;
  const listKind = names.listKind ?? `${names.kind}List`;
  const ret: JsonObject = {
    description: `${listKind} is a list of ${names.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: typeMetaProperty(apiVersionDescription),
      items: {
        description: `List of ${names.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: definitionRef(opts.kindDefinition, opts.v2),
      },
      kind: typeMetaProperty(kindDescription),
      metadata: definitionRef(listMetaName, opts.v2, listMetadataDescription),
    },
    'x-kubernetes-group-version-kind': gvkExtension(group, version, listKind),
  };
  const selectable = selectableFieldsExtension(crd, version);
  if (selectable !== undefined) ret['x-kubernetes-selectable-fields'] = selectable;
  return ret;
}
