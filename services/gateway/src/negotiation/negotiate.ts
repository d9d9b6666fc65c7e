// Content negotiation: the Accept list, in the client's order, against what this server writes
// for the request: JSON and YAML always, the binary envelope for kinds with a proto schema, and
// for get, list and watch Tables (`as=Table;g=meta.orch.io;v=v1`) and metadata only
// (`as=PartialObjectMetadata` for get and watch, `as=PartialObjectMetadataList` for list).
import type { HttpRequest } from '../http/handler.js';
import { newNotAcceptable, newUnsupportedMediaType } from '@orch/apimachinery/errors';
import { protobufMediaTypes } from '@orch/apimachinery/protobuf';

export type MediaType = 'json' | 'yaml' | 'protobuf';

export const supportedMediaTypes = ['application/json', 'application/yaml'];

/** What a create or update body may be. */
export const writableMediaTypes = ['application/json', 'application/yaml', ...protobufMediaTypes];

/** The groups of Table and PartialObjectMetadata answered: orch's own, and the Kubernetes one that clients ask for first. */
export const metaGroups = ['meta.orch.io', 'meta.k8s.io'];

export type PartialKind = 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface Output {
  media: MediaType;
  /** The Content-Type to answer with. */
  contentType: string;
  /** Set when a Table is asked for and allowed: the group the client named. */
  table?: { group: string; version: 'v1' };
  /** Set when metadata only is asked for and allowed: the kind and the group the client named. */
  partial?: { kind: PartialKind; group: string; version: 'v1' };
}

/** What the answer may be beyond JSON and YAML. */
export interface OutputAllowed {
  protobuf?: boolean;
  table?: boolean;
  /** The metadata-only kind this request may answer: PartialObjectMetadata (get, watch) or PartialObjectMetadataList (list). */
  partial?: PartialKind;
}

export interface AcceptEntry {
  type: string;
  params: Record<string, string>;
  q: number;
}

/** The Accept header's entries, best first (by q, then in the client's order); q=0 dropped. */
export function parseAccept(header: string): AcceptEntry[] {
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

function plain(type: string, allowed: OutputAllowed): Output | undefined {
  if (type === 'application/json' || type === 'application/*' || type === '*/*')
    return { media: 'json', contentType: 'application/json' };
  if (type === 'application/yaml') return { media: 'yaml', contentType: 'application/yaml' };
  if (allowed.protobuf && protobufMediaTypes.includes(type))
    return { media: 'protobuf', contentType: type };
  return undefined;
}

/** An `as=` entry (Table, PartialObjectMetadata...) this request allows, in an explicit media type. */
function transformed(e: AcceptEntry, allowed: OutputAllowed): Output | undefined {
  const as = e.params['as'];
  const group = e.params['g'] ?? '';
  if (
    e.params['v'] !== 'v1' ||
    !metaGroups.includes(group) ||
    e.type === '*/*' ||
    e.type === 'application/*'
  )
    return undefined;
  if (as === 'Table' && allowed.table) {
    const out = plain(e.type, allowed);
    return out && { ...out, table: { group, version: 'v1' } };
  }
  if (as !== undefined && as === allowed.partial) {
    // Metadata has a schema whatever the kind, so it may always be binary.
    const out = plain(e.type, { ...allowed, protobuf: true });
    return out && { ...out, partial: { kind: allowed.partial, group, version: 'v1' } };
  }
  return undefined;
}

/**
 * The representation to answer in: the first Accept entry this server can write for the
 * request, skipping the others (a Table or PartialObjectMetadata where none is served, the
 * binary envelope for a kind without schema); 406 when none is left.
 */
export function negotiateOutput(req: HttpRequest, allowed: OutputAllowed = {}): Output {
  return negotiateMediaType(req.headers.accept, allowed);
}

/** negotiateOutput for an Accept header's value. */
export function negotiateMediaType(
  header: string | undefined,
  allowed: OutputAllowed = {}
): Output {
  if (!header) return { media: 'json', contentType: 'application/json' };
  for (const e of parseAccept(header)) {
    const out = e.params['as'] === undefined ? plain(e.type, allowed) : transformed(e, allowed);
    if (out) return out;
  }
  const types = [...supportedMediaTypes, ...(allowed.protobuf ? protobufMediaTypes : [])];
  if (allowed.table) types.push('application/json;as=Table;g=meta.orch.io;v=v1');
  if (allowed.partial) types.push(`application/json;as=${allowed.partial};g=meta.orch.io;v=v1`);
  throw newNotAcceptable(types);
}

/** The media type of a request body; 415 for anything not allowed (JSON and YAML by default). */
export function negotiateInput(
  req: HttpRequest,
  allowed: string[] = ['application/json', 'application/yaml']
): string {
  return bodyMediaType(req.headers['content-type'], allowed);
}

/** negotiateInput for a Content-Type header's value. */
export function bodyMediaType(
  header: string | undefined,
  allowed: string[] = ['application/json', 'application/yaml']
): string {
  const raw = (header ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
  const type = raw === '' ? 'application/json' : raw;
  if (!allowed.includes(type)) throw newUnsupportedMediaType(type, allowed);
  return type;
}
