// The OpenAPI 3.0 document of a group version (k8s kube-openapi builder3), derived from the
// Swagger 2.0 one: references under components/schemas, parameters with schemas, bodies and
// responses as content by media type; a custom resource's schemas as its CRD wrote them.
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { GroupVersion } from '@orch/apimachinery/schema';
import {
  customResourceDefinitions,
  metaDefinitions,
  pathPrefix,
  produces,
  resourceDefinitions,
} from './openapi.js';
import type { Json, JsonObject } from './openapi.js';

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
