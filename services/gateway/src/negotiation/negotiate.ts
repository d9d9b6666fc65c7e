// Content negotiation: the Accept list, in the client's order, against what this server writes.
import type { IncomingMessage } from 'node:http';
import { newNotAcceptable, newUnsupportedMediaType } from '@orch/apimachinery/errors';

export type MediaType = 'json' | 'yaml';

export const supportedMediaTypes = ['application/json', 'application/yaml'];

interface AcceptEntry {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(header: string): AcceptEntry[] {
  return header
    .split(',')
    .map((part, i) => {
      const [type = '', ...rest] = part.trim().split(';');
      const params: Record<string, string> = {};
      for (const p of rest) {
        const [k = '', v = ''] = p.split('=');
        params[k.trim().toLowerCase()] = v.trim();
      }
      const q = params['q'] === undefined ? 1 : Number(params['q']);
      return { type: type.trim().toLowerCase(), params, q: Number.isNaN(q) ? 0 : q, i };
    })
    .filter((e) => e.type !== '' && e.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
}

/**
 * The media type to answer in. Entries asking for another representation (`as=Table`, a
 * protobuf) are skipped: this server does not write them yet, so the client's fallback decides.
 */
export function negotiateOutput(req: IncomingMessage): MediaType {
  const header = req.headers.accept;
  if (!header) return 'json';
  for (const e of parseAccept(header)) {
    if (e.params['as'] !== undefined) continue;
    if (e.type === 'application/json' || e.type === 'application/*' || e.type === '*/*') return 'json';
    if (e.type === 'application/yaml') return 'yaml';
  }
  throw newNotAcceptable(supportedMediaTypes);
}

/** The media type of a request body; 415 for anything but JSON and YAML. */
export function negotiateInput(req: IncomingMessage, allowed: string[] = ['application/json', 'application/yaml']): string {
  const raw = (req.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
  const type = raw === '' ? 'application/json' : raw;
  if (!allowed.includes(type)) throw newUnsupportedMediaType(type, allowed);
  return type;
}
