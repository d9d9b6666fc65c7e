// Key arithmetic and object (de)serialisation for /registry/<group>/<resource>/[<ns>/]<name>:
// the storage service's format, shared with the in-memory storage of the tests so that both
// store and answer the same bytes.
import { newBadRequest } from '../errors/index.js';
import type { GroupResource } from '../errors/index.js';

/** The end of the key range that holds every key starting with prefix (etcd's prefix end). */
export function prefixEnd(prefix: string): string {
  const buf = Buffer.from(prefix);
  for (let i = buf.length - 1; i >= 0; i--) {
    if ((buf[i] ?? 0xff) < 0xff) {
      const end = buf.subarray(0, i + 1);
      end[i] = (end[i] ?? 0) + 1;
      return end.toString('latin1');
    }
  }
  return '\0';
}

/** The group and resource a key belongs to, for error details. */
export function groupResourceOf(key: string): GroupResource & { name: string } {
  const parts = key.split('/');
  const group = parts[2] === 'core' ? '' : (parts[2] ?? '');
  return { group, resource: parts[3] ?? '', name: parts[parts.length - 1] ?? '' };
}

/** A type-level prefix `/registry/<group>/<resource>/`, the only prefixes History accepts. */
export function isTypePrefix(prefix: string): boolean {
  return /^\/registry\/[^/]+\/[^/]+\/$/.test(prefix);
}

export function validatePrefix(prefix: string): void {
  if (!prefix.startsWith('/registry/') || !prefix.endsWith('/')) {
    throw newBadRequest(
      `invalid key prefix ${JSON.stringify(prefix)}: must start with /registry/ and end with /`
    );
  }
}

type Json = Record<string, unknown>;

/**
 * The stored bytes of an object: its JSON without metadata.resourceVersion, with apiVersion,
 * kind and metadata first (the order withResourceVersion's fast path reads).
 */
export function encodeForStorage(object: Buffer | Uint8Array): Buffer {
  let obj: Json;
  try {
    obj = JSON.parse(Buffer.from(object).toString('utf8')) as Json;
  } catch {
    throw newBadRequest('object is not valid JSON');
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
    throw newBadRequest('object must be a JSON object');
  const { apiVersion, kind, metadata, ...rest } = obj;
  let meta = metadata;
  if (meta && typeof meta === 'object' && 'resourceVersion' in meta) {
    const { resourceVersion: _drop, ...others } = meta as Json;
    meta = others;
  }
  return Buffer.from(JSON.stringify({ apiVersion, kind, metadata: meta, ...rest }));
}

/** An object as read from etcd, with metadata.resourceVersion set to its revision. */
export function decodeFromStorage(value: Buffer, revision: number | string): Json {
  const obj = JSON.parse(value.toString('utf8')) as Json;
  const meta = (obj['metadata'] ?? {}) as Json;
  obj['metadata'] = { ...meta, resourceVersion: String(revision) };
  return obj;
}

/** `{"apiVersion":"…","kind":"…","metadata":{`: the head of every value encodeForStorage writes. */
const storedHead = /^\{"apiVersion":"[^"\\]*","kind":"[^"\\]*","metadata":\{/;
const resourceVersionKey = Buffer.from('"resourceVersion"');

/**
 * The stored bytes with metadata.resourceVersion set to the revision, as JSON. Values in the
 * order encodeForStorage writes (and without any "resourceVersion" text, which could be a stale
 * key) take the fast path: the field is spliced in at the start of metadata, without parsing the
 * object. Anything else is parsed and written again.
 */
export function withResourceVersion(value: Buffer, revision: number | string): Buffer {
  const head = storedHead.exec(value.subarray(0, 512).toString('latin1'));
  const at = head ? head[0].length : 0;
  const next = value[at]; // '"' (a first key) or '}' (metadata is {}); anything else takes the slow path
  if (head && (next === 0x22 || next === 0x7d) && value.indexOf(resourceVersionKey) < 0) {
    const empty = next === 0x7d;
    return Buffer.concat([
      value.subarray(0, at),
      Buffer.from(`"resourceVersion":"${revision}"${empty ? '' : ','}`),
      value.subarray(at),
    ]);
  }
  return Buffer.from(JSON.stringify(decodeFromStorage(value, revision)));
}
