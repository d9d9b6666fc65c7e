// The continue token of a chunked list served from the watch cache: the storage service's own
// format (services/storage etcd3/continue-token.ts: the snapshot revision of the first page and
// the key to resume after, relative to the list's prefix), so a page from a cache snapshot and
// a page from storage continue each other (k8s storage/etcd3 continue.go).
interface TokenBody {
  v: 'orch.io/v1';
  rv: number;
  start: string;
}

export function encodeContinue(revision: number, nextKey: string, prefix: string): string {
  const body: TokenBody = { v: 'orch.io/v1', rv: revision, start: nextKey.slice(prefix.length) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The token's revision and start key; undefined for anything storage should judge (and refuse). */
export function decodeContinue(
  token: string,
  prefix: string
): { revision: number; startKey: string } | undefined {
  try {
    const body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<TokenBody>;
    if (
      body.v !== 'orch.io/v1' ||
      typeof body.rv !== 'number' ||
      typeof body.start !== 'string' ||
      body.rv <= 0 ||
      body.start.includes('..') ||
      body.start.startsWith('/')
    )
      return undefined;
    return { revision: body.rv, startKey: prefix + body.start };
  } catch {
    return undefined;
  }
}
