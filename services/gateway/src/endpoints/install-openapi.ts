// Serving the OpenAPI documents (k8s kube-openapi handler and handler3): built once per
// generation of the registry, rendered once per format, served with an ETag; /openapi/v2 in JSON
// or protobuf by the Accept header, /openapi/v3 as a root of hashed links to each group version.
// When an aggregator provides the extension servers' documents, /openapi/v3 lists and serves their
// group versions too, and /openapi/v2 is the gateway's document with their paths and definitions
// merged in (kube-aggregator's aggregator: what the gateway defines itself wins a name both use).
import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse } from '../http/handler.js';
import type { PathMux } from '../http/path-mux.js';
import { requestUrl } from '../http/request-url.js';
import { newNotAcceptable, newPathNotFound, statusInWireOrder } from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import { buildOpenApiV3 } from './build-openapi-v3.js';
import { buildOpenApiV2, pathPrefix } from './openapi.js';
import type { JsonObject } from './openapi.js';
import { encodeOpenApiV2Protobuf } from './openapi-v2-protobuf.js';

const protobufV2Deprecated = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const protobufV2 = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** OpenAPI documents from elsewhere (extension servers). */
export interface ExtraOpenApi {
  /** Changes whenever the documents may have. */
  readonly generation: number;
  /** v3 documents keyed `apis/<group>/<version>`. */
  openApiV3(): Map<string, Buffer>;
  /** Whole v2 documents, one per server. */
  openApiV2(): JsonObject[];
}

export interface OpenApiDocuments {
  v2: JsonObject;
  /** Per group version, keyed `api/v1` or `apis/<group>/<version>`. */
  v3: Map<string, JsonObject>;
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
  v2: JsonObject;
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
    v2,
    v2Json: render(Buffer.from(JSON.stringify(v2)), 'application/json'),
    v2Protobuf: render(encodeOpenApiV2Protobuf(v2), protobufV2),
    v3Root: render(Buffer.from(JSON.stringify({ paths: rootPaths })), 'application/json'),
    v3,
  };
  caches.set(registry, cache);
  return cache;
}

/** The documents served for a registry for a registry (for tests and tools). */
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
  res.end(`${JSON.stringify(statusInWireOrder(err.status))}\n`);
}

/** The v2 representation for an Accept header: protobuf when asked for first, JSON otherwise. */
function chooseV2(
  accept: string | undefined,
  cache: { v2Json: Rendered; v2Protobuf: Rendered }
): Rendered | undefined {
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

/** What an extension server's v2 document adds: its paths and definitions not already named. */
export function mergeV2(own: JsonObject, extra: JsonObject[]): JsonObject {
  const paths = { ...(own['paths'] as JsonObject) };
  const definitions = { ...(own['definitions'] as JsonObject) };
  for (const doc of extra) {
    for (const [k, v] of Object.entries((doc['paths'] ?? {}) as JsonObject)) paths[k] ??= v;
    for (const [k, v] of Object.entries((doc['definitions'] ?? {}) as JsonObject))
      definitions[k] ??= v;
  }
  return { ...own, paths, definitions };
}

/** Why a v2 document's parts cannot be served in protobuf too (it is then left out), if they cannot. */
function unencodable(doc: JsonObject): string | undefined {
  try {
    encodeOpenApiV2Protobuf({
      swagger: '2.0',
      info: { title: '', version: '' },
      paths: (doc['paths'] ?? {}) as JsonObject,
      definitions: (doc['definitions'] ?? {}) as JsonObject,
    });
    return undefined;
  } catch (err) {
    return String(err);
  }
}

interface Extras {
  generation: number;
  own: Cache;
  v3Root: Rendered;
  v3: Map<string, Rendered>;
  v2Json: Rendered;
  v2Protobuf: Rendered;
}

/** The documents with the extra ones, rendered once per generation of either. */
function extraRendered(extra: ExtraOpenApi | undefined): (own: Cache) => Extras {
  let last: Extras | undefined;
  return (own) => {
    const generation = extra?.generation ?? 0;
    if (last && last.generation === generation && last.own === own) return last;
    const v3 = new Map<string, Rendered>();
    for (const [key, body] of extra?.openApiV3() ?? [])
      if (!own.v3.has(key)) v3.set(key, render(body, 'application/json'));
    const paths = JSON.parse(own.v3Root.body.toString('utf8')) as { paths: JsonObject };
    for (const [key, doc] of v3)
      paths.paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` };
    const v2Extra = (extra?.openApiV2() ?? []).filter((doc) => unencodable(doc) === undefined);
    const v2 = v2Extra.length > 0 ? mergeV2(own.v2, v2Extra) : undefined;
    last = {
      generation,
      own,
      v3Root:
        v3.size > 0 ? render(Buffer.from(JSON.stringify(paths)), 'application/json') : own.v3Root,
      v3,
      v2Json: v2 ? render(Buffer.from(JSON.stringify(v2)), 'application/json') : own.v2Json,
      v2Protobuf: v2 ? render(encodeOpenApiV2Protobuf(v2), protobufV2) : own.v2Protobuf,
    };
    return last;
  };
}

/** Installs GET /openapi/v2, /openapi/v3 and /openapi/v3/{api/v1,apis/<group>/<version>}. */
export function installOpenApi(
  app: PathMux,
  registry: ResourceRegistry,
  extra?: ExtraOpenApi
): void {
  const extras = extraRendered(extra);
  app.get('/openapi/v2', (req, res) => {
    const doc = chooseV2(req.headers.accept, extras(documentsFor(registry)));
    if (doc) send(req, res, doc, 'no-cache, private');
    else writeStatus(res, newNotAcceptable(['application/json', protobufV2]));
  });

  app.get('/openapi/v3', (req, res) =>
    send(req, res, extras(documentsFor(registry)).v3Root, 'no-cache, private')
  );

  // Like k8s: a matching ?hash= is immutable; a stale one is redirected to the current document.
  const serveGroupVersion = (req: HttpRequest, res: HttpResponse, key: string): void => {
    const own = documentsFor(registry);
    const doc = own.v3.get(key) ?? extras(own).v3.get(key);
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
