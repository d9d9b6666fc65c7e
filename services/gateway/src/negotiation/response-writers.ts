// Writing objects and errors in the negotiated representation (k8s responsewriters): JSON
// (indented with pretty=true), YAML, the binary envelope, a Table or PartialObjectMetadata(List).
import type { HttpRequest, HttpResponse } from '../http/handler.js';
import { requestUrl } from '../http/request-url.js';
import { goJson } from '../watch/cached-json.js';
import { stringify as toYaml } from 'yaml';
import { isStatus, statusInWireOrder, toStatusError } from '@orch/apimachinery/errors';
import { canEncode, encodeEnvelope } from '@orch/apimachinery/protobuf';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import {
  asPartialObjectMetadata,
  asPartialObjectMetadataList,
} from '@orch/apimachinery/schema-model';
import { toUpstreamGroups } from '../groupalias/translate-groups.js';
import { upstreamGroupNamesFrom, warningsFrom } from '../request/context.js';
import { isPrettyPrint } from '../request/query-params.js';
import { negotiateOutput } from './negotiate.js';
import type { MediaType, Output } from './negotiate.js';
import { tableOf } from './table.js';

/**
 * `299 - "<text>"`, the text quoted and sent as its UTF-8 bytes (as Go writes it): Node accepts
 * only Latin-1 in header values, so a warning naming a field such as "\uFFFDlabels" would throw.
 */
export function warningHeader(text: string): string {
  const quoted = JSON.stringify(text).replace(/\x7f/g, '\\u007f');
  return Buffer.from(`299 - ${quoted}`, 'utf8').toString('latin1');
}

/**
 * An object in the media type, as upstream's serializer writes it: JSON as Go's json.Encoder
 * does (one line ending in a newline; indented, without one, with pretty, as MarshalIndent), a
 * Status with its fields in upstream's order.
 */
export function encode(
  value: unknown,
  media: MediaType,
  pretty: boolean,
  contentType?: string
): { body: string | Buffer; contentType: string } {
  const obj = isStatus(value) ? statusInWireOrder(value) : value;
  if (media === 'protobuf')
    return {
      body: encodeEnvelope(obj),
      contentType: contentType ?? 'application/vnd.orch.protobuf',
    };
  if (media === 'yaml') return { body: toYaml(obj), contentType: 'application/yaml' };
  return {
    body: pretty ? goJson(JSON.stringify(obj, null, 2)) : `${goJson(JSON.stringify(obj))}\n`,
    contentType: 'application/json',
  };
}

export function isPretty(req: HttpRequest): boolean {
  const q = requestUrl(req).searchParams;
  return isPrettyPrint(q, req.headers['user-agent']);
}

/** How an object may be answered. */
export interface WriteOptions {
  def?: ResourceDefinition;
  /**
   * The answer of a get or list of a served kind: it may be transformed as the Accept list asks,
   * into a Table or the metadata only (k8s transformResponseObject).
   */
  transform?: boolean;
}

type Json = Record<string, unknown>;

/**
 * The answer in the group names the request was made in: upstream's for a request under an
 * upstream group alias (filters/with-group-alias.ts), the served ones otherwise.
 */
export function inRequestGroupNames<T>(req: HttpRequest, obj: T): T {
  return upstreamGroupNamesFrom(req) ? toUpstreamGroups(obj) : obj;
}

export function writeObjectNegotiated(
  req: HttpRequest,
  res: HttpResponse,
  code: number,
  obj: unknown,
  opts: WriteOptions = {}
): void {
  let out: Output;
  let payload = inRequestGroupNames(req, obj);
  try {
    const def = opts.transform === true ? opts.def : undefined;
    const isList = def !== undefined && (obj as Json)['kind'] === def.listKind;
    out = negotiateOutput(req, {
      protobuf: canEncode(obj),
      table: def !== undefined,
      ...(def ? { partial: isList ? 'PartialObjectMetadataList' : 'PartialObjectMetadata' } : {}),
    });
    if (out.table && def) payload = tableOf(req, def, payload, out.table.group);
    if (out.partial) {
      const apiVersion = `${out.partial.group}/${out.partial.version}`;
      payload = isList
        ? asPartialObjectMetadataList(payload as Json, apiVersion)
        : asPartialObjectMetadata(payload as Json, apiVersion);
    }
  } catch (err) {
    writeErrorNegotiated(req, res, err);
    return;
  }
  const { body, contentType } = encode(payload, out.media, isPretty(req), out.contentType);
  send(req, res, code, contentType, body);
}

/** An answer with the request's warnings; no body for HEAD. */
function send(
  req: HttpRequest,
  res: HttpResponse,
  code: number,
  contentType: string,
  body: string | Buffer
): void {
  writeHeadOf(req, res, code, contentType);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The status line and headers of an answer: its type, no caching, the request's warnings. */
function writeHeadOf(
  req: HttpRequest,
  res: HttpResponse,
  code: number,
  contentType: string,
  more: Record<string, string> = {}
): void {
  const warnings = warningsFrom(req);
  if (warnings.length > 0) res.setHeader('Warning', warnings.map(warningHeader));
  res.writeHead(code, {
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
    ...more,
  });
}

/**
 * True when a list is answered in plain JSON: no Table or metadata-only transformation, not
 * binary, not indented, in the served group names. Such a list is written from its items' bytes
 * (writeJsonList).
 */
export function answersPlainJson(req: HttpRequest): boolean {
  if (isPretty(req) || upstreamGroupNamesFrom(req)) return false;
  try {
    const out = negotiateOutput(req, {
      protobuf: true,
      table: true,
      partial: 'PartialObjectMetadataList',
    });
    return out.media === 'json' && !out.table && !out.partial;
  } catch {
    return false; // the negotiated writer answers 406
  }
}

const comma = Buffer.from(',');

/**
 * Lists larger than chunkedListBytes are written in chunks of about listChunkBytes
 * (writeJsonList). Smaller ones go in one write: each chunk boundary costs a sequential reader
 * a turn of the gateway's event loop (paging 10,000 objects in pages of 500, about 220 KiB
 * each, took 60-79 ms in 128 KiB chunks against 46 ms in one write).
 */
export const chunkedListBytes = 1024 * 1024;
export const listChunkBytes = 256 * 1024;

/**
 * Chunk buffers of listChunkBytes, each reused once the write that carried it has completed.
 * Each chunk of a large list used to be a new Buffer: a LIST of 5,000 objects allocated 5 MB
 * outside V8's heap, and under a flood of them V8 answered the external memory with a major GC
 * several times a second, each holding the gateway's event loop for up to tens of milliseconds.
 */
const freeChunks: Buffer[] = [];
const maxFreeChunks = 8;

/**
 * A list in JSON from its head (kind, apiVersion, metadata) and each item's JSON bytes, without
 * parsing them; ending in a newline, as every JSON answer.
 *
 * A list larger than chunkedListBytes is written a chunk at a time, the event loop turning between
 * chunks: copying and encrypting a list of 5,000 objects in one go held the gateway's event loop
 * for tens of milliseconds, and every other request on it waited (Go's scheduler gives upstream's other requests their turn while one list is written).
 * Its Content-Length is known beforehand, so the answer is the same bytes either way.
 */
export async function writeJsonList(
  req: HttpRequest,
  res: HttpResponse,
  head: Json,
  items: Buffer[]
): Promise<void> {
  const open = Buffer.from(JSON.stringify({ ...head, items: [] }).slice(0, -2)); // ..."items":[
  const close = Buffer.from(']}\n');
  let length = open.length + close.length + Math.max(0, items.length - 1) * comma.length;
  for (const item of items) length += item.length;
  if (length <= chunkedListBytes || req.method === 'HEAD') {
    const parts: Buffer[] = [open];
    for (let i = 0; i < items.length; i++) {
      if (i > 0) parts.push(comma);
      parts.push(items[i]!);
    }
    parts.push(close);
    send(req, res, 200, 'application/json', Buffer.concat(parts, length));
    return;
  }
  writeHeadOf(req, res, 200, 'application/json', { 'Content-Length': String(length) });
  let chunk = freeChunks.pop() ?? Buffer.allocUnsafeSlow(listChunkBytes);
  let used = 0;
  const put = (piece: Buffer): void => {
    piece.copy(chunk, used);
    used += piece.length;
  };
  // Not waiting for the socket to drain: a chunk is larger than the response's buffer, so that
  // would wait on the client's reads at each chunk; the list is in memory already, as it was
  // when written in one go.
  const flush = async (): Promise<void> => {
    if (used > 0) {
      const full = chunk;
      res.write(full.subarray(0, used), (err) => {
        if (!err && freeChunks.length < maxFreeChunks) freeChunks.push(full);
      });
      chunk = freeChunks.pop() ?? Buffer.allocUnsafeSlow(listChunkBytes);
      used = 0;
    }
    await turn();
  };
  put(open);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (used + comma.length + item.length > listChunkBytes) {
      await flush();
      if (res.destroyed) return; // the client left
    }
    if (i > 0) put(comma);
    if (item.length > listChunkBytes - used) {
      // Larger than a chunk: what is before it, then the cached bytes themselves (never changed).
      await flush();
      if (res.destroyed) return;
      res.write(item);
      continue;
    }
    put(item);
  }
  if (used + close.length > listChunkBytes) await flush();
  put(close);
  res.end(chunk.subarray(0, used));
}

/** One turn of the event loop: the I/O that is ready runs before the next chunk. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Writes any error as a Status, in JSON when the Accept list cannot be honoured. */
export function writeErrorNegotiated(req: HttpRequest, res: HttpResponse, err: unknown): void {
  const se = toStatusError(err);
  const status = inRequestGroupNames(req, se.status);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let out: Output = { media: 'json', contentType: 'application/json' };
  try {
    out = negotiateOutput(req, { protobuf: true });
  } catch {
    out = { media: 'json', contentType: 'application/json' };
  }
  const { body, contentType } = encode(status, out.media, isPretty(req), out.contentType);
  const retry = se.status.details?.retryAfterSeconds;
  writeHeadOf(req, res, se.code, contentType, retry ? { 'Retry-After': String(retry) } : {});
  res.end(body);
}
