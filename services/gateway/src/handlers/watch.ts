// Watch: a JSON stream of events (or length-prefixed binary frames, or events holding one-row
// Tables or PartialObjectMetadata). Unset or "0" resourceVersion starts with synthetic ADDED
// events from a list; any other value resumes exactly after it.
import type { HttpResponse } from '../http/handler.js';
import { StatusError, toStatusError } from '@orch/apimachinery/errors';
import { canEncode, encodeWatchFrame } from '@orch/apimachinery/protobuf';
import { formatApiVersion } from '@orch/apimachinery/schema';
import { asPartialObjectMetadata } from '@orch/apimachinery/schema-model';
import type { WatchEvent } from '@orch/apimachinery/watch';
import { negotiateOutput } from '../negotiation/negotiate.js';
import { inRequestGroupNames } from '../negotiation/response-writers.js';
import { upstreamGroupNamesFrom } from '../request/context.js';
import { tableOf } from '../negotiation/table.js';
import { Watcher } from '../watch/watcher.js';
import type { WatchFilter } from '../watch/watcher.js';
import type { Lister, Watcher as RestWatcher } from '../registry/rest.js';
import { parseListQuery, parseRevision } from './list-options.js';
import { contextOf, namespaceOf } from './scope.js';
import type { RequestScope } from './scope.js';

export async function watchResource(
  scope: RequestScope<RestWatcher & Lister>,
  res: HttpResponse
): Promise<void> {
  const apiVersion = formatApiVersion(scope.def);
  // 406 before the stream starts; the binary envelope for kinds with a schema.
  const out = negotiateOutput(scope.req, {
    protobuf: canEncode({ apiVersion, kind: scope.def.kind }),
    table: true,
    partial: 'PartialObjectMetadata',
  });
  const tableGroup = out.table?.group;
  const partialVersion = out.partial && `${out.partial.group}/${out.partial.version}`;
  if (tableGroup) tableOf(scope.req, scope.def, {}, tableGroup); // 400 for a bad includeObject, before the stream
  const opts = parseListQuery(scope.query, scope.def);
  const ns = namespaceOf(scope);
  const filter: WatchFilter = {};
  if (ns) filter.namespace = ns;
  if (scope.info.name) filter.name = scope.info.name;
  if (opts.labelSelector) filter.labels = opts.labelSelector;
  if (opts.fieldSelector) filter.fields = opts.fieldSelector;

  const rv = opts.resourceVersion;
  let from: number;
  let initial: Record<string, unknown>[] = [];
  if (rv === undefined || rv === '' || rv === '0') {
    const fieldSelector = [
      opts.fieldSelectorText,
      scope.info.name ? `metadata.name=${scope.info.name}` : '',
    ]
      .filter(Boolean)
      .join(',');
    const list = await scope.rest.list(contextOf(scope), {
      consistency: rv === '0' ? 'ANY' : 'MOST_RECENT',
      labelSelector: opts.labelSelectorText,
      fieldSelector,
    });
    from = list.revision;
    initial = list.items;
  } else {
    from = parseRevision(rv);
  }

  const binary = out.media === 'protobuf';
  const contentType = binary ? `${out.contentType};stream=watch` : 'application/json';
  // Table events: each object a Table of one row; the column definitions in the first only.
  // (The closures keep the request and definition only, not the scope with its parsed query.)
  const { req, def } = scope;
  let headers = true;
  const upstreamNames = upstreamGroupNamesFrom(req);
  const asTable = (event: WatchEvent): WatchEvent => {
    // In the group names the watch was asked in (an upstream alias's, filters/with-group-alias.ts).
    const e = upstreamNames ? inRequestGroupNames(req, event) : event;
    // Metadata only: every object but an error's Status, bookmarks included (k8s WatchServer.Fixup).
    if (partialVersion && e.type !== 'ERROR') {
      return {
        type: e.type,
        object: asPartialObjectMetadata(e.object as Record<string, unknown>, partialVersion),
      };
    }
    if (!tableGroup || e.type === 'BOOKMARK' || e.type === 'ERROR') return e;
    const table = tableOf(req, def, e.object, tableGroup);
    if (!headers) table.columnDefinitions = [];
    headers = false;
    return { type: e.type, object: table };
  };
  const encode = (e: WatchEvent): string | Buffer => {
    const ev = asTable(e);
    return binary
      ? encodeWatchFrame(ev.type, ev.object as Record<string, unknown>)
      : `${JSON.stringify(ev)}\n`;
  };
  res.writeHead(200, {
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();
  const watcher = new Watcher(res, filter, {
    bookmarks: opts.allowWatchBookmarks,
    apiVersion: inRequestGroupNames(req, { apiVersion }).apiVersion,
    kind: scope.def.kind,
    ...(binary || tableGroup || partialVersion || upstreamNames ? { encode } : {}),
    ...(scope.onWatchEvent ? { onEvent: scope.onWatchEvent } : {}),
  });
  for (const obj of initial) watcher.send({ type: 'ADDED', object: obj });

  const seconds = opts.timeoutSeconds ?? scope.maxWatchSeconds;
  const timer = setTimeout(() => watcher.close(), seconds * 1000);
  watcher.onClose(() => clearTimeout(timer));
  // At shutdown the watch ends like a timed-out one (upstream's default
  // --shutdown-watch-termination-grace-period of 0): the client watches again elsewhere.
  const shuttingDown = scope.shuttingDown;
  if (shuttingDown) {
    const end = (): void => watcher.close();
    if (shuttingDown.aborted) end();
    else {
      shuttingDown.addEventListener('abort', end, { once: true });
      watcher.onClose(() => shuttingDown.removeEventListener('abort', end));
    }
  }
  try {
    const unsubscribe = await scope.rest.watch(contextOf(scope), watcher, from);
    watcher.onClose(unsubscribe);
  } catch (err) {
    const se = err instanceof StatusError ? err : toStatusError(err);
    watcher.fail(se.status);
  }
  // The handler returns once the watch runs: the Watcher holds what the stream needs, and the
  // chain's frames and the request's scope are not kept for the watch's lifetime.
}
