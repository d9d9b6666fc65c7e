// The continue token of a chunked list: opaque to clients, it carries the snapshot revision of
// the first page and the key to resume after, relative to the list's prefix (k8s storage/etcd3
// continue.go). One format for the storage service and the gateway's watch cache, so a page from
// either continues the other.
import { newBadRequest } from '../errors/index.js';

interface TokenBody {
  v: 'orch.io/v1';
  rv: number;
  start: string;
}

export function encodeContinue(revision: number, nextKey: string, prefix: string): string {
  const body: TokenBody = { v: 'orch.io/v1', rv: revision, start: nextKey.slice(prefix.length) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeContinue(
  token: string,
  prefix: string
): { revision: number; startKey: string } {
  let body: Partial<TokenBody>;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<TokenBody>;
  } catch {
    throw newBadRequest('continue key is not valid: not a token issued by this server');
  }
  if (
    body.v !== 'orch.io/v1' ||
    typeof body.rv !== 'number' ||
    typeof body.start !== 'string' ||
    body.rv <= 0
  ) {
    throw newBadRequest(
      'continue key is not valid: incorrect encoded start resourceVersion (version orch.io/v1)'
    );
  }
  if (body.start.includes('..') || body.start.startsWith('/')) {
    throw newBadRequest('continue key is not valid: it points outside the requested collection');
  }
  return { revision: body.rv, startKey: prefix + body.start };
}
