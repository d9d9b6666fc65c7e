// Reading a request body into an object of the kind the path names: JSON or YAML, a JSON
// object, with apiVersion, kind, name and namespace agreeing with the request.
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { newBadRequest } from '@orch/apimachinery/errors';
import { formatApiVersion } from '@orch/apimachinery/schema';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { Obj } from '../registry/strategy.js';

export function parseBody(body: Buffer, contentType: string): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') throw newBadRequest('the request body is empty');
  try {
    if (contentType === 'application/yaml') return parseYaml(text, { schema: 'core' }) as unknown;
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw newBadRequest(`the request body is not valid ${contentType === 'application/yaml' ? 'YAML' : 'JSON'}: ${(err as Error).message}`);
  }
}

export function decodeObject(
  body: unknown,
  def: ResourceDefinition,
  target: { namespace?: string; name?: string }
): Obj {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw newBadRequest(`the body must be a ${def.kind} object`);
  }
  const obj = body as Record<string, unknown>;
  const apiVersion = formatApiVersion(def);
  if (obj['apiVersion'] !== undefined && obj['apiVersion'] !== apiVersion) {
    throw newBadRequest(`the API version in the data (${String(obj['apiVersion'])}) does not match the expected API version (${apiVersion})`);
  }
  if (obj['kind'] !== undefined && obj['kind'] !== def.kind) {
    throw newBadRequest(`the kind in the data (${String(obj['kind'])}) does not match the expected kind (${def.kind})`);
  }
  obj['apiVersion'] = apiVersion;
  obj['kind'] = def.kind;
  const meta = obj['metadata'] ?? {};
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw newBadRequest('metadata must be an object');
  const m = meta as Obj['metadata'];
  obj['metadata'] = m;
  if (target.name !== undefined && m.name !== undefined && m.name !== target.name) {
    throw newBadRequest(`the name of the object (${m.name}) does not match the name on the URL (${target.name})`);
  }
  if (target.name !== undefined) m.name = target.name;
  if (def.namespaced) {
    if (m.namespace !== undefined && m.namespace !== '' && target.namespace !== undefined && m.namespace !== target.namespace) {
      throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (target.namespace) m.namespace = target.namespace;
  }
  return obj as Obj;
}

export function readBody(req: IncomingMessage): Buffer {
  const body = (req as IncomingMessage & { body?: unknown }).body;
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}
