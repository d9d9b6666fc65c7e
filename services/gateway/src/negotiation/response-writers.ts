// Writing objects and errors in the negotiated representation (k8s responsewriters): JSON
// (indented with pretty=true), YAML, the binary envelope, or a Table.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify as toYaml } from 'yaml';
import { toStatusError } from '@orch/apimachinery/errors';
import { canEncode, encodeEnvelope } from '@orch/apimachinery/protobuf';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { warningsFrom } from '../request/context.js';
import { negotiateOutput } from './negotiate.js';
import type { MediaType, Output } from './negotiate.js';
import { tableOf } from './table.js';

function warningHeader(text: string): string {
  return `299 - ${JSON.stringify(text)}`;
}

export function encode(obj: unknown, media: MediaType, pretty: boolean, contentType?: string): { body: string | Buffer; contentType: string } {
  if (media === 'protobuf') return { body: encodeEnvelope(obj), contentType: contentType ?? 'application/vnd.orch.protobuf' };
  if (media === 'yaml') return { body: toYaml(obj), contentType: 'application/yaml' };
  return { body: pretty ? `${JSON.stringify(obj, null, 2)}\n` : JSON.stringify(obj), contentType: 'application/json' };
}

export function isPretty(req: IncomingMessage): boolean {
  const v = new URL(req.url ?? '/', 'https://x').searchParams.get('pretty');
  return v === 'true' || v === '1';
}

/** How an object may be answered: tables for the get and list of a served kind. */
export interface WriteOptions {
  def?: ResourceDefinition;
  table?: boolean;
}

export function writeObjectNegotiated(req: IncomingMessage, res: ServerResponse, code: number, obj: unknown, opts: WriteOptions = {}): void {
  let out: Output;
  let payload = obj;
  try {
    out = negotiateOutput(req, { protobuf: canEncode(obj), table: opts.table === true && opts.def !== undefined });
    if (out.table && opts.def) payload = tableOf(req, opts.def, obj, out.table.group);
  } catch (err) {
    writeErrorNegotiated(req, res, err);
    return;
  }
  const { body, contentType } = encode(payload, out.media, isPretty(req), out.contentType);
  const warnings = warningsFrom(req);
  if (warnings.length > 0) res.setHeader('Warning', warnings.map(warningHeader));
  res.writeHead(code, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Writes any error as a Status, in JSON when the Accept list cannot be honoured. */
export function writeErrorNegotiated(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  const se = toStatusError(err);
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
  const { body, contentType } = encode(se.status, out.media, isPretty(req), out.contentType);
  const headers: Record<string, string> = { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' };
  const retry = se.status.details?.retryAfterSeconds;
  if (retry) headers['Retry-After'] = String(retry);
  const warnings = warningsFrom(req);
  if (warnings.length > 0) res.setHeader('Warning', warnings.map(warningHeader));
  res.writeHead(se.code, headers);
  res.end(body);
}
