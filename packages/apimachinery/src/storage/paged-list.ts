// A list of the objects under a prefix, page by page over a range read (k8s apiserver
// storage/etcd3 store.GetList): the one paging loop of the storage service's etcd store and the
// in-memory storage of the tests, so the two cannot answer a list differently.
import { newBadRequest, newResourceExpired } from '../errors/index.js';
import type { StatusError } from '../errors/index.js';
import { fieldValue, parseFieldSelector, parseLabelSelector } from '../selectors/index.js';
import type { FieldSelector, LabelSelector } from '../selectors/index.js';
import { decodeContinue, encodeContinue } from './continue-token.js';
import { prefixEnd, validatePrefix, withResourceVersion } from './keys.js';
import type { ListOptions, ListResult } from './list-options.js';

/** One range read: the first keys of [start, end) and how many keys the range holds in all. */
export interface RangePage {
  kvs: { key: string; value: Buffer; modRevision: number | string }[];
  count: number;
  /** The revision the range was read at. */
  revision: number;
}

/** What the paging reads: a store's range read and its wait for a revision. */
export interface RangeSource {
  /**
   * Up to `limit` keys (0: every key) of [start, end) at `revision` (0: the current one);
   * `serializable` when any revision the store has will do. A revision compacted away throws
   * `expired()`.
   */
  range(
    start: string,
    end: string,
    limit: number,
    revision: number,
    serializable: boolean,
    expired: () => StatusError
  ): Promise<RangePage>;
  waitForRevision(revision: number): Promise<unknown>;
}

export async function pagedList(opts: ListOptions, source: RangeSource): Promise<ListResult> {
  validatePrefix(opts.prefix);
  const labels = parseSelectorOr400(() =>
    opts.labelSelector ? parseLabelSelector(opts.labelSelector) : undefined
  );
  const fields = parseSelectorOr400(() =>
    opts.fieldSelector ? parseFieldSelector(opts.fieldSelector) : undefined
  );
  const filtered = (!!labels && !labels.empty()) || (!!fields && !fields.empty());
  const end = prefixEnd(opts.prefix);
  const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;

  let startKey = opts.prefix;
  let revision = 0; // 0: read at the current revision
  if (opts.continueToken) {
    const token = decodeContinue(opts.continueToken, opts.prefix);
    startKey = token.startKey;
    revision = token.revision;
  } else if (opts.consistency === 'EXACT') {
    if (!opts.revision) throw newBadRequest('an exact list needs a resourceVersion');
    await source.waitForRevision(opts.revision);
    revision = opts.revision;
  } else if (opts.consistency === 'NOT_OLDER_THAN' && opts.revision) {
    await source.waitForRevision(opts.revision);
  }
  const serializable = !opts.continueToken && opts.consistency === 'ANY';

  const items: Buffer[] = [];
  let more = false;
  let lastKey = '';
  let remaining = -1;
  for (;;) {
    // With a selector, read more than asked: some keys will not match.
    const pageSize =
      limit === 0
        ? 0
        : filtered
          ? Math.max(limit - items.length, Math.min(limit * 2, 1000))
          : limit - items.length;
    const at = revision;
    const expired = () =>
      opts.continueToken
        ? newResourceExpired(
            'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.'
          )
        : newResourceExpired(`too old resource version: ${at}`);
    const res = await source.range(startKey, end, pageSize, revision, serializable, expired);
    if (revision === 0) revision = res.revision;
    let i = 0;
    for (const kv of res.kvs) {
      i++;
      lastKey = kv.key;
      if (filtered && !matches(kv.value, labels, fields)) continue;
      items.push(withResourceVersion(kv.value, kv.modRevision));
      if (limit > 0 && items.length >= limit) break;
    }
    const unread = res.count - i;
    more = unread > 0;
    if (!filtered) remaining = unread;
    if (!more || (limit > 0 && items.length >= limit) || limit === 0) break;
    startKey = `${lastKey}\0`;
  }
  return {
    items,
    revision,
    continueToken: more ? encodeContinue(revision, `${lastKey}\0`, opts.prefix) : '',
    remainingItemCount: more && !filtered ? remaining : -1,
  };
}

function parseSelectorOr400<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw newBadRequest(
      `unable to parse requirement: ${err instanceof Error ? err.message : String(err)}`
    );
  }
}

function matches(
  value: Buffer,
  labels: LabelSelector | undefined,
  fields: FieldSelector | undefined
): boolean {
  const obj = JSON.parse(value.toString('utf8')) as {
    metadata?: { labels?: Record<string, string> };
  };
  if (labels && !labels.matches(obj.metadata?.labels)) return false;
  if (fields && !fields.matches((f) => fieldValue(obj, f))) return false;
  return true;
}
