// OpenAPI documents generated from the resource registry and the schema model (k8s kube-openapi
// builder, routes /openapi/v2 and /openapi/v3). Computed once per generation of the registry
// (rebuilt when its set of definitions changes) and served with an ETag.
//
// Kind schemas come from the schema model compiled from proto/orch/api: properties with
// descriptions (what `kubectl explain` prints), types, required fields, the merge markers and
// x-kubernetes-group-version-kind. A kind without a proto schema keeps an open `type: object`.
// A custom resource's come from its CRD version (apiextensions-apiserver's openapi builder), v2
// stripped of what Swagger 2.0 cannot say and v3 as the CRD wrote it.
//
// Write operations list `fieldValidation` and `fieldManager`: kubectl reads the PATCH
// operation's parameters to decide that the server validates fields, and then delegates
// `--validate=strict|warn` to it instead of validating client-side.
import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse } from '../http/handler.js';
import type { PathMux } from '../http/path-mux.js';
import { requestUrl } from '../http/request-url.js';
import {
  customResourceListOpenAPISchema,
  customResourceOpenAPISchema,
} from '@orch/apimachinery/apiextensions';
import { newNotAcceptable, newPathNotFound } from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import type { ResourceDefinition, ResourceRegistry, Verb } from '@orch/apimachinery/registry';
import type { GroupVersion, GroupVersionKind } from '@orch/apimachinery/schema';
import { builtinSchemaModel, openApiDefinitions } from '@orch/apimachinery/schema-model';
import { subresourceVerbs } from './discovery.js';
import { encodeOpenApiV2Protobuf } from './openapi-v2-protobuf.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const metaPrefix = 'io.orch.apimachinery.pkg.apis.meta.v1';
const statusDef = `${metaPrefix}.Status`;
const listMetaDef = `${metaPrefix}.ListMeta`;
const patchDef = `${metaPrefix}.Patch`;
const deleteOptionsDef = `${metaPrefix}.DeleteOptions`;

// kubectl asks with the deprecated `@` spelling; Go's mime parser rejects `@` in a response
// Content-Type, so, like kube-openapi, answer with the dotted spelling.
const protobufV2Deprecated = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const protobufV2 = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const produces = ['application/json', 'application/yaml'];
const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** `io.orch.api.<group>.<version>.<Kind>`: core for '', `.orch.io` dropped, foreign domains reversed. */
export function definitionName(gvk: GroupVersionKind): string {
  const { group, version, kind } = gvk;
  if (group === '') return `io.orch.api.core.${version}.${kind}`;
  if (group.endsWith('.orch.io'))
    return `io.orch.api.${group.slice(0, -'.orch.io'.length)}.${version}.${kind}`;
  if (!group.includes('.')) return `io.orch.api.${group}.${version}.${kind}`;
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The group as it appears in operation ids: `Core`, `Apps`, `Coordination` (k8s naming). */
function groupWord(group: string): string {
  if (group === '') return 'Core';
  const short = group.replace(/\.(orch\.io|k8s\.io)$/, '');
  return short.split(/[.-]/).map(upperFirst).join('');
}

function groupTag(gv: GroupVersion): string {
  const g =
    gv.group === '' ? 'core' : gv.group.replace(/\.(orch\.io|k8s\.io)$/, '').replace(/[.-]/g, '_');
  return `${g}_${gv.version}`;
}

function pathPrefix(gv: GroupVersion): string {
  return gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`;
}

const ref = (name: string): JsonObject => ({ $ref: `#/definitions/${name}` });

function query(name: string, type: string, description: string): JsonObject {
  const p: JsonObject = { name, in: 'query', description, type };
  if (name !== 'pretty') p['uniqueItems'] = true;
  return p;
}

const q = {
  pretty: query('pretty', 'string', "If 'true', then the output is pretty printed."),
  watch: query(
    'watch',
    'boolean',
    'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.'
  ),
  allowWatchBookmarks: query(
    'allowWatchBookmarks',
    'boolean',
    'Requests watch events with type "BOOKMARK".'
  ),
  resourceVersion: query(
    'resourceVersion',
    'string',
    'Constrains which resource versions a request may be served from; see the resourceVersion semantics.'
  ),
  resourceVersionMatch: query(
    'resourceVersionMatch',
    'string',
    'How resourceVersion is applied to list calls: Exact or NotOlderThan.'
  ),
  limit: query('limit', 'integer', 'The maximum number of items to return in one chunk of a list.'),
  continue: query('continue', 'string', 'The continue token of the previous chunk of a list.'),
  labelSelector: query(
    'labelSelector',
    'string',
    'A selector to restrict the returned objects by their labels.'
  ),
  fieldSelector: query(
    'fieldSelector',
    'string',
    'A selector to restrict the returned objects by their fields.'
  ),
  timeoutSeconds: query('timeoutSeconds', 'integer', 'Timeout for the list/watch call.'),
  dryRun: query('dryRun', 'string', 'When present (All), modifications are not persisted.'),
  fieldManager: query(
    'fieldManager',
    'string',
    'fieldManager is a name associated with the actor or entity that is making these changes.'
  ),
  force: query(
    'force',
    'boolean',
    'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.'
  ),
  fieldValidation: query(
    'fieldValidation',
    'string',
    'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields: Ignore, Warn (the default) or Strict.'
  ),
};

const writeParams = [q.dryRun, q.fieldManager, q.fieldValidation];

const listParams = [
  q.allowWatchBookmarks,
  q.continue,
  q.fieldSelector,
  q.labelSelector,
  q.limit,
  q.resourceVersion,
  q.resourceVersionMatch,
  q.timeoutSeconds,
  q.watch,
];
const deleteCollectionParams = [
  q.continue,
  q.dryRun,
  q.fieldSelector,
  q.labelSelector,
  q.limit,
  q.resourceVersion,
  q.resourceVersionMatch,
  q.timeoutSeconds,
];

function pathParam(name: string, description: string): JsonObject {
  return { name, in: 'path', description, required: true, type: 'string', uniqueItems: true };
}

function body(schemaName: string, required = true): JsonObject {
  return { name: 'body', in: 'body', required, schema: ref(schemaName) };
}

type Action = 'list' | 'post' | 'get' | 'put' | 'patch' | 'delete' | 'deletecollection';

interface OperationSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  action: Action;
  idVerb: string;
  description: string;
  parameters: JsonObject[];
  responses: Record<string, string | undefined>;
  consumes?: string[];
}

/** The operations of one verb on an object path (`sub` names a subresource). */
function objectOperation(verb: Verb, kindDef: string, what: string): OperationSpec | undefined {
  switch (verb) {
    case 'get':
      return {
        method: 'get',
        action: 'get',
        idVerb: 'read',
        description: `read the specified ${what}`,
        parameters: [q.resourceVersion],
        responses: { '200': kindDef },
      };
    case 'update':
      return {
        method: 'put',
        action: 'put',
        idVerb: 'replace',
        description: `replace the specified ${what}`,
        parameters: [body(kindDef), ...writeParams],
        responses: { '200': kindDef, '201': kindDef },
        consumes: ['*/*'],
      };
    case 'patch':
      return {
        method: 'patch',
        action: 'patch',
        idVerb: 'patch',
        description: `partially update the specified ${what}`,
        parameters: [body(patchDef), ...writeParams, q.force],
        responses: { '200': kindDef, '201': kindDef },
        consumes: patchTypes,
      };
    case 'delete':
      return {
        method: 'delete',
        action: 'delete',
        idVerb: 'delete',
        description: `delete a ${what}`,
        parameters: [body(deleteOptionsDef, false), q.dryRun],
        responses: { '200': statusDef, '202': statusDef },
        consumes: ['*/*'],
      };
    case 'create':
      return {
        method: 'post',
        action: 'post',
        idVerb: 'create',
        description: `create ${what}`,
        parameters: [body(kindDef), ...writeParams],
        responses: { '200': kindDef, '201': kindDef, '202': kindDef },
        consumes: ['*/*'],
      };
    default:
      return undefined;
  }
}

function collectionOperation(verb: Verb, def: ResourceDefinition): OperationSpec | undefined {
  const kindDef = definitionName({ group: def.group, version: def.version, kind: def.kind });
  const listDef = definitionName({ group: def.group, version: def.version, kind: def.listKind });
  switch (verb) {
    case 'list':
      return {
        method: 'get',
        action: 'list',
        idVerb: 'list',
        description: `list or watch objects of kind ${def.kind}`,
        parameters: listParams,
        responses: { '200': listDef },
      };
    case 'create':
      return objectOperation('create', kindDef, `a ${def.kind}`);
    case 'deletecollection':
      return {
        method: 'delete',
        action: 'deletecollection',
        idVerb: 'deleteCollection',
        description: `delete collection of ${def.kind}`,
        parameters: [body(deleteOptionsDef, false), ...deleteCollectionParams],
        responses: { '200': statusDef },
        consumes: ['*/*'],
      };
    default:
      return undefined;
  }
}

function renderOperation(
  spec: OperationSpec,
  def: ResourceDefinition,
  operationId: string
): JsonObject {
  const responses: JsonObject = {};
  for (const [code, schemaName] of Object.entries(spec.responses)) {
    responses[code] = schemaName
      ? {
          description: code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK',
          schema: ref(schemaName),
        }
      : { description: 'OK' };
  }
  responses['401'] = { description: 'Unauthorized' };
  const op: JsonObject = {
    description: spec.description,
    consumes: spec.consumes ?? [],
    produces: spec.action === 'list' ? [...produces, 'application/json;stream=watch'] : produces,
    schemes: ['https'],
    tags: [groupTag(def)],
    operationId,
    parameters: spec.parameters,
    responses,
    'x-kubernetes-action': spec.action,
    'x-kubernetes-group-version-kind': { group: def.group, version: def.version, kind: def.kind },
  };
  if (!spec.consumes) delete op['consumes'];
  return op;
}

/** Swagger paths (with leading slash) of one resource. */
function resourcePaths(def: ResourceDefinition): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = {};
  const prefix = `/${pathPrefix(def)}`;
  const ns = def.namespaced ? 'Namespaced' : '';
  const idBase = `${groupWord(def.group)}${upperFirst(def.version)}${ns}${def.kind}`;
  const kindDef = definitionName({ group: def.group, version: def.version, kind: def.kind });
  const base = def.namespaced
    ? `${prefix}/namespaces/{namespace}/${def.resource}`
    : `${prefix}/${def.resource}`;
  const nsParams = def.namespaced
    ? [pathParam('namespace', 'object name and auth scope, such as for teams and projects')]
    : [];

  const collection: JsonObject = {};
  for (const verb of def.verbs) {
    const spec = collectionOperation(verb, def);
    if (spec) collection[spec.method] = renderOperation(spec, def, `${spec.idVerb}${idBase}`);
  }
  if (Object.keys(collection).length > 0)
    paths[base] = { ...collection, parameters: [...nsParams, q.pretty] };

  const nameParam = pathParam('name', `name of the ${def.kind}`);
  const object: JsonObject = {};
  for (const verb of def.verbs) {
    const spec = objectOperation(verb, kindDef, def.kind);
    if (spec && verb !== 'create')
      object[spec.method] = renderOperation(spec, def, `${spec.idVerb}${idBase}`);
  }
  if (Object.keys(object).length > 0)
    paths[`${base}/{name}`] = { ...object, parameters: [nameParam, ...nsParams, q.pretty] };

  for (const sub of def.subresources ?? []) {
    const ops: JsonObject = {};
    // A custom resource's scale is an autoscaling/v1 Scale (upstream's CRD builder routes).
    const subDef = sub === 'scale' && def.customResource ? scaleDefinition : kindDef;
    for (const verb of subresourceVerbs(sub)) {
      const spec = objectOperation(verb, subDef, `${sub} of the specified ${def.kind}`);
      if (spec)
        ops[spec.method] = renderOperation(spec, def, `${spec.idVerb}${idBase}${upperFirst(sub)}`);
    }
    paths[`${base}/{name}/${sub}`] = { ...ops, parameters: [nameParam, ...nsParams, q.pretty] };
  }

  if (def.namespaced && def.verbs.includes('list')) {
    const spec = collectionOperation('list', def);
    if (spec) {
      const id = `list${groupWord(def.group)}${upperFirst(def.version)}${def.kind}ForAllNamespaces`;
      paths[`${prefix}/${def.resource}`] = {
        get: renderOperation(spec, def, id),
        parameters: [q.pretty],
      };
    }
  }
  return paths;
}

function gvkExtension(gvk: GroupVersionKind): JsonObject {
  return {
    'x-kubernetes-group-version-kind': [{ group: gvk.group, kind: gvk.kind, version: gvk.version }],
  };
}

const objectMetaMessage = 'orch.api.meta.v1.ObjectMeta';
const scaleGvk = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
const scaleDefinition = definitionName(scaleGvk);

/**
 * Definitions of a custom resource (builder.go's kind and list schemas) and of ObjectMeta and
 * what it reaches, which the kind's metadata references.
 */
function customResourceDefinitions(
  def: ResourceDefinition,
  cr: NonNullable<ResourceDefinition['customResource']>,
  v2: boolean
): Record<string, JsonObject> {
  const gv = { group: def.group, version: def.version };
  const kindDefinition = definitionName({ ...gv, kind: def.kind });
  const version = cr.version.name;
  return {
    ...openApiDefinitions(
      builtinSchemaModel(),
      new Map([
        [objectMetaMessage, undefined],
        ...(def.subresources?.includes('scale')
          ? [['orch.api.autoscaling.v1.Scale', scaleGvk] as const]
          : []),
      ])
    ),
    [kindDefinition]: customResourceOpenAPISchema(cr.crd, version, { v2 }) as JsonObject,
    [definitionName({ ...gv, kind: def.listKind })]: customResourceListOpenAPISchema(
      cr.crd,
      version,
      { v2, kindDefinition }
    ) as JsonObject,
  };
}

/**
 * Definitions of one resource: its kind and every definition it reaches, from the schema model
 * (an open schema for a kind without one), and its list kind (none for a virtual kind, which is
 * never listed). A custom resource's from its CRD, in their v2 form.
 */
function resourceDefinitions(def: ResourceDefinition): Record<string, JsonObject> {
  if (def.customResource) return customResourceDefinitions(def, def.customResource, true);
  const gv = { group: def.group, version: def.version };
  const apiVersion = def.group === '' ? def.version : `${def.group}/${def.version}`;
  const kindName = definitionName({ ...gv, kind: def.kind });
  const schema = builtinSchemaModel().kind({ ...gv, kind: def.kind });
  const fromModel = schema
    ? openApiDefinitions(
        builtinSchemaModel(),
        new Map([[schema.message.fullName, { ...gv, kind: def.kind }]])
      )
    : {};
  const kind = {
    ...fromModel,
    [kindName]: fromModel[kindName] ?? {
      description: `${def.kind} (${apiVersion}). The schema is open until the API kinds are generated from proto/: any fields are accepted here and validated by the server.`,
      type: 'object',
      ...gvkExtension({ ...gv, kind: def.kind }),
    },
  };
  if (def.virtual) return kind;
  return {
    ...kind,
    [definitionName({ ...gv, kind: def.listKind })]: {
      description: `${def.listKind} is a list of ${def.kind}.`,
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: {
          description:
            'APIVersion defines the versioned schema of this representation of an object.',
          type: 'string',
        },
        items: { description: `List of ${def.resource}.`, type: 'array', items: ref(kindName) },
        kind: {
          description:
            'Kind is a string value representing the REST resource this object represents.',
          type: 'string',
        },
        metadata: { description: 'Standard list metadata.', ...ref(listMetaDef) },
      },
      ...gvkExtension({ ...gv, kind: def.listKind }),
    },
  };
}

function metaDefinitions(): Record<string, JsonObject> {
  return {
    [statusDef]: {
      description: 'Status is a return value for calls that do not return other objects.',
      type: 'object',
      properties: {
        apiVersion: {
          description:
            'APIVersion defines the versioned schema of this representation of an object.',
          type: 'string',
        },
        code: {
          description: 'Suggested HTTP return code for this status, 0 if not set.',
          type: 'integer',
          format: 'int32',
        },
        details: { description: 'Extended data associated with the reason.', type: 'object' },
        kind: {
          description:
            'Kind is a string value representing the REST resource this object represents.',
          type: 'string',
        },
        message: {
          description: 'A human-readable description of the status of this operation.',
          type: 'string',
        },
        metadata: { description: 'Standard list metadata.', ...ref(listMetaDef) },
        reason: {
          description:
            'A machine-readable description of why this operation is in the "Failure" status.',
          type: 'string',
        },
        status: {
          description: 'Status of the operation. One of: "Success" or "Failure".',
          type: 'string',
        },
      },
      ...gvkExtension({ group: '', version: 'v1', kind: 'Status' }),
    },
    [listMetaDef]: {
      description:
        'ListMeta describes metadata that synthetic resources must have: resourceVersion and continue.',
      type: 'object',
      properties: {
        continue: {
          description: 'Set when the list was chunked; pass it back to get the next chunk.',
          type: 'string',
        },
        resourceVersion: { description: 'The version of the collection.', type: 'string' },
      },
    },
    [deleteOptionsDef]: {
      description: 'DeleteOptions may be provided when deleting an API object.',
      type: 'object',
    },
    [patchDef]: {
      description: 'Patch is provided to give a concrete name and type to the patch request body.',
      type: 'object',
    },
  };
}

export interface OpenApiDocuments {
  v2: JsonObject;
  /** Per group version, keyed `api/v1` or `apis/<group>/<version>`. */
  v3: Map<string, JsonObject>;
}

/** The Swagger 2.0 document of every served resource. */
export function buildOpenApiV2(registry: ResourceRegistry): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const definitions: Record<string, JsonObject> = metaDefinitions();
  for (const def of registry.all()) {
    Object.assign(paths, resourcePaths(def));
    Object.assign(definitions, resourceDefinitions(def));
  }
  return {
    swagger: '2.0',
    info: { title: 'Orch', version: 'v1.32.0-orch.0.1.0' },
    paths,
    definitions,
  };
}

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Rewrites `#/definitions/` references to `#/components/schemas/`, deeply. */
function v3Refs(value: Json): Json {
  if (Array.isArray(value)) return value.map(v3Refs);
  if (!isObject(value)) return value;
  // A reference with siblings (a description) becomes allOf, as kube-openapi writes v3.
  if (typeof value['$ref'] === 'string' && Object.keys(value).length > 1) {
    const { $ref, ...rest } = value;
    return {
      ...(v3Refs(rest) as JsonObject),
      allOf: [{ $ref: $ref.replace('#/definitions/', '#/components/schemas/') }],
    };
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      k === '$ref' && typeof v === 'string'
        ? v.replace('#/definitions/', '#/components/schemas/')
        : v3Refs(v);
  }
  return out;
}

function v3Parameter(p: JsonObject): JsonObject {
  const { type, ...rest } = p;
  return { ...rest, schema: { type: type ?? 'string' } };
}

function v3Operation(op: JsonObject): JsonObject {
  const { consumes, produces: out, schemes: _schemes, parameters, responses, ...rest } = op;
  const params = Array.isArray(parameters) ? parameters.filter(isObject) : [];
  const bodyParam = params.find((p) => p['in'] === 'body');
  const result: JsonObject = { ...rest };
  result['parameters'] = params.filter((p) => p['in'] !== 'body').map(v3Parameter);
  if (bodyParam) {
    const content: JsonObject = {};
    for (const mt of Array.isArray(consumes) ? consumes : ['*/*'])
      if (typeof mt === 'string') content[mt] = { schema: bodyParam['schema'] ?? {} };
    result['requestBody'] = { content, required: bodyParam['required'] === true };
  }
  const rs: JsonObject = {};
  for (const [code, r] of Object.entries(isObject(responses) ? responses : {})) {
    if (!isObject(r)) continue;
    const entry: JsonObject = { description: r['description'] ?? '' };
    if (r['schema'] !== undefined) {
      const content: JsonObject = {};
      for (const mt of Array.isArray(out) ? out : produces)
        if (typeof mt === 'string') content[mt] = { schema: r['schema'] };
      entry['content'] = content;
    }
    rs[code] = entry;
  }
  result['responses'] = rs;
  return result;
}

/** The OpenAPI 3.0 document of one group version, derived from the Swagger one. */
export function buildOpenApiV3(
  v2: JsonObject,
  gv: GroupVersion,
  registry: ResourceRegistry
): JsonObject {
  const prefix = `/${pathPrefix(gv)}/`;
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(isObject(v2['paths']) ? v2['paths'] : {})) {
    if (!path.startsWith(prefix) || !isObject(item)) continue;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(item)) {
      if (key === 'parameters' && Array.isArray(value))
        out[key] = value.filter(isObject).map(v3Parameter);
      else if (isObject(value)) out[key] = v3Operation(value);
    }
    paths[path] = out;
  }
  const allDefs = isObject(v2['definitions']) ? v2['definitions'] : {};
  const schemas: JsonObject = {};
  const wanted = new Set([...Object.keys(metaDefinitions())]);
  for (const def of registry.resourcesIn(gv))
    for (const name of Object.keys(resourceDefinitions(def))) wanted.add(name);
  for (const name of wanted) {
    const s = allDefs[name];
    if (s !== undefined) schemas[name] = s;
  }
  // A custom resource's v3 schemas keep what v2 strips (nullable, anyOf, defaults...).
  for (const def of registry.resourcesIn(gv))
    if (def.customResource)
      Object.assign(schemas, customResourceDefinitions(def, def.customResource, false));
  return v3Refs({
    openapi: '3.0.0',
    info: { title: 'Orch', version: 'v1.32.0-orch.0.1.0' },
    paths,
    components: { schemas },
  }) as JsonObject;
}

/** A served representation: bytes, content type and the ETag (a hash of the bytes). */
interface Rendered {
  body: Buffer;
  contentType: string;
  hash: string;
}

function render(body: Buffer, contentType: string): Rendered {
  return { body, contentType, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
}

interface Cache {
  /** The registry's generation the documents were built at. */
  generation: number;
  v2Json: Rendered;
  v2Protobuf: Rendered;
  v3Root: Rendered;
  v3: Map<string, Rendered>;
}

const caches = new WeakMap<ResourceRegistry, Cache>();

/** Every document of a registry, generated on first use and reused until the registry changes. */
function documentsFor(registry: ResourceRegistry): Cache {
  const cached = caches.get(registry);
  if (cached && cached.generation === registry.generation) return cached;
  const generation = registry.generation;
  const v2 = buildOpenApiV2(registry);
  const v3 = new Map<string, Rendered>();
  const rootPaths: JsonObject = {};
  for (const gv of registry.groupVersions()) {
    const key = pathPrefix(gv);
    const doc = render(
      Buffer.from(JSON.stringify(buildOpenApiV3(v2, gv, registry))),
      'application/json'
    );
    v3.set(key, doc);
    rootPaths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` };
  }
  const cache: Cache = {
    generation,
    v2Json: render(Buffer.from(JSON.stringify(v2)), 'application/json'),
    v2Protobuf: render(encodeOpenApiV2Protobuf(v2), protobufV2),
    v3Root: render(Buffer.from(JSON.stringify({ paths: rootPaths })), 'application/json'),
    v3,
  };
  caches.set(registry, cache);
  return cache;
}

/** The documents openapi.ts serves for a registry (for tests and tools). */
export function openApiDocuments(registry: ResourceRegistry): OpenApiDocuments {
  const v2 = JSON.parse(documentsFor(registry).v2Json.body.toString('utf8')) as JsonObject;
  const v3 = new Map<string, JsonObject>();
  for (const [k, r] of documentsFor(registry).v3)
    v3.set(k, JSON.parse(r.body.toString('utf8')) as JsonObject);
  return { v2, v3 };
}

function send(req: HttpRequest, res: HttpResponse, doc: Rendered, cacheControl: string): void {
  const etag = `"${doc.hash}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Vary', 'Accept');
  res.setHeader('Cache-Control', cacheControl);
  const inm = req.headers['if-none-match'];
  if (inm !== undefined && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', doc.contentType);
  res.end(doc.body);
}

function writeStatus(res: HttpResponse, err: StatusError): void {
  res.statusCode = err.code;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(err.status));
}

/** The v2 representation for an Accept header: protobuf when asked for first, JSON otherwise. */
function chooseV2(accept: string | undefined, cache: Cache): Rendered | undefined {
  if (!accept) return cache.v2Json;
  const entries = accept
    .split(',')
    .map((part, i) => {
      const [type = '', ...params] = part.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = qParam ? Number(qParam.slice(2)) : 1;
      return { type: type.trim().toLowerCase(), q: Number.isNaN(quality) ? 0 : quality, i };
    })
    .filter((e) => e.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const e of entries) {
    if (e.type === protobufV2 || e.type === protobufV2Deprecated) return cache.v2Protobuf;
    if (e.type === 'application/json' || e.type === 'application/*' || e.type === '*/*')
      return cache.v2Json;
  }
  return undefined;
}

/** Installs GET /openapi/v2, /openapi/v3 and /openapi/v3/{api/v1,apis/<group>/<version>}. */
export function installOpenApi(app: PathMux, registry: ResourceRegistry): void {
  app.get('/openapi/v2', (req, res) => {
    const cache = documentsFor(registry);
    const doc = chooseV2(req.headers.accept, cache);
    if (doc) send(req, res, doc, 'no-cache, private');
    else writeStatus(res, newNotAcceptable(['application/json', protobufV2]));
  });

  app.get('/openapi/v3', (req, res) =>
    send(req, res, documentsFor(registry).v3Root, 'no-cache, private')
  );

  // Like k8s: a matching ?hash= is immutable; a stale one is redirected to the current document.
  const serveGroupVersion = (req: HttpRequest, res: HttpResponse, key: string): void => {
    const doc = documentsFor(registry).v3.get(key);
    if (!doc) {
      writeStatus(res, newPathNotFound());
      return;
    }
    const hash = requestUrl(req).searchParams.get('hash') ?? undefined;
    if (hash === undefined) {
      send(req, res, doc, 'no-cache, private');
    } else if (hash === doc.hash) {
      send(req, res, doc, 'public, immutable');
    } else {
      res.writeHead(301, { Location: `/openapi/v3/${key}?hash=${doc.hash}` });
      res.end();
    }
  };
  app.get('/openapi/v3/api/:version', (req, res, p) =>
    serveGroupVersion(req, res, `api/${p['version'] ?? ''}`)
  );
  app.get('/openapi/v3/apis/:group/:version', (req, res, p) =>
    serveGroupVersion(req, res, `apis/${p['group'] ?? ''}/${p['version'] ?? ''}`)
  );
}
