// The Swagger 2.0 document generated from the resource registry and the schema model (k8s
// kube-openapi builder); the v3 documents derive from it (build-openapi-v3.ts), and
// install-openapi.ts serves both.
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
import {
  customResourceListOpenAPISchema,
  customResourceOpenAPISchema,
} from '@orch/apimachinery/apiextensions';
import type { ResourceDefinition, ResourceRegistry, Verb } from '@orch/apimachinery/registry';
import type { GroupVersion, GroupVersionKind } from '@orch/apimachinery/schema';
import { builtinSchemaModel, openApiDefinitions } from '@orch/apimachinery/schema-model';
import { subresourceVerbs } from './discovery.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const metaPrefix = 'io.orch.apimachinery.pkg.apis.meta.v1';
const statusDef = `${metaPrefix}.Status`;
const listMetaDef = `${metaPrefix}.ListMeta`;
const patchDef = `${metaPrefix}.Patch`;
const deleteOptionsDef = `${metaPrefix}.DeleteOptions`;

// kubectl asks with the deprecated `@` spelling; Go's mime parser rejects `@` in a response
// Content-Type, so, like kube-openapi, answer with the dotted spelling.
export const produces = ['application/json', 'application/yaml'];
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

export function pathPrefix(gv: GroupVersion): string {
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
export function customResourceDefinitions(
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
export function resourceDefinitions(def: ResourceDefinition): Record<string, JsonObject> {
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

export function metaDefinitions(): Record<string, JsonObject> {
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
