// Writing objects and errors in the negotiated media type (k8s responsewriters).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify as toYaml } from 'yaml';
import { toStatusError } from '@orch/apimachinery/errors';
import { warningsFrom } from '../request/context.js';
import { negotiateOutput } from './negotiate.js';
import type { MediaType } from './negotiate.js';

function warningHeader(text: string): string {
  return `299 - ${JSON.stringify(text)}`;
}

export function encode(obj: unknown, media: MediaType, pretty: boolean): { body: string; contentType: string } {
  if (media === 'yaml') return { body: toYaml(obj), contentType: 'application/yaml' };
  return { body: pretty ? `${JSON.stringify(obj, null, 2)}\n` : JSON.stringify(obj), contentType: 'application/json' };
}

export function isPretty(req: IncomingMessage): boolean {
  const v = new URL(req.url ?? '/', 'https://x').searchParams.get('pretty');
  return v === 'true' || v === '1';
}

export function writeObjectNegotiated(req: IncomingMessage, res: ServerResponse, code: number, obj: unknown): void {
  let media: MediaType;
  try {
    media = negotiateOutput(req);
  } catch (err) {
    writeErrorNegotiated(req, res, err);
    return;
  }
  const { body, contentType } = encode(obj, media, isPretty(req));
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
  let media: MediaType = 'json';
  try {
    media = negotiateOutput(req);
  } catch {
    media = 'json';
  }
  const { body, contentType } = encode(se.status, media, isPretty(req));
  const headers: Record<string, string> = { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' };
  const retry = se.status.details?.retryAfterSeconds;
  if (retry) headers['Retry-After'] = String(retry);
  res.writeHead(se.code, headers);
  res.end(body);
}
