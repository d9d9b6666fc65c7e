// Query parameters of get, list and watch (k8s metav1.ListOptions), validated against the spec's
// resourceVersion tables, and the storage read (ListOptions of @orch/apimachinery/storage) they ask for.
import { newBadRequest } from '@orch/apimachinery/errors';
import type { Consistency, ListOptions } from '@orch/apimachinery/storage';
import { parseFieldSelector, parseLabelSelector } from '@orch/apimachinery/selectors';
import type { FieldSelector, LabelSelector } from '@orch/apimachinery/selectors';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import {
  queryBool,
  queryInt64,
  queryOptionalInt64,
  queryString,
  queryStrings,
} from '../request/query-params.js';

/** The list query parameters (k8s metav1.ListOptions) as parsed from the URL. */
export interface ListQuery {
  resourceVersion: string | undefined;
  resourceVersionMatch: string | undefined;
  limit: number;
  continueToken: string | undefined;
  labelSelector: LabelSelector | undefined;
  fieldSelector: FieldSelector | undefined;
  labelSelectorText: string;
  fieldSelectorText: string;
  allowWatchBookmarks: boolean;
  timeoutSeconds: number | undefined;
}

const one = queryString;

export function parseRevision(rv: string): number {
  if (!/^\d+$/.test(rv)) throw newBadRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  return Number(rv);
}

export function parseListQuery(q: URLSearchParams, def: ResourceDefinition): ListQuery {
  // As upstream's Convert_url_Values_To_v1_ListOptions: limit an int64 (a negative one lists
  // everything, as 0), timeoutSeconds a *int64 (0 is the server's default), the first value of
  // each scalar, unknown parameters ignored.
  const limit = Math.max(0, queryInt64(q, 'limit'));
  const timeout = queryOptionalInt64(q, 'timeoutSeconds');
  const labelSelectorText = one(q, 'labelSelector') ?? '';
  const fieldSelectorText = one(q, 'fieldSelector') ?? '';
  let labelSelector: LabelSelector | undefined;
  let fieldSelector: FieldSelector | undefined;
  try {
    labelSelector = labelSelectorText ? parseLabelSelector(labelSelectorText) : undefined;
  } catch (err) {
    throw newBadRequest(`unable to parse requirement: ${(err as Error).message}`);
  }
  try {
    fieldSelector = fieldSelectorText ? parseFieldSelector(fieldSelectorText) : undefined;
  } catch (err) {
    throw newBadRequest(`invalid field selector: ${(err as Error).message}`);
  }
  const allowed = new Set(['metadata.name', 'metadata.namespace', ...(def.selectableFields ?? [])]);
  if (!def.namespaced) allowed.delete('metadata.namespace');
  for (const f of fieldSelector?.fields() ?? []) {
    if (!allowed.has(f)) {
      throw newBadRequest(`field label not supported: ${f}`, [
        {
          reason: 'FieldValueNotSupported',
          field: 'fieldSelector',
          message: `supported: ${[...allowed].join(', ')}`,
        },
      ]);
    }
  }
  return {
    resourceVersion: one(q, 'resourceVersion'),
    resourceVersionMatch: one(q, 'resourceVersionMatch'),
    limit,
    continueToken: one(q, 'continue'),
    labelSelector,
    fieldSelector,
    labelSelectorText,
    fieldSelectorText,
    allowWatchBookmarks: queryBool(q, 'allowWatchBookmarks'),
    timeoutSeconds: timeout === 0 ? undefined : timeout,
  };
}

/** The read a list asks for: the "resourceVersion semantics for list" table, row by row. */
export function listConsistency(
  o: ListQuery
): Pick<ListOptions, 'consistency' | 'revision' | 'limit' | 'continueToken'> {
  const rv = o.resourceVersion;
  const match = o.resourceVersionMatch;
  if (match !== undefined && match !== 'Exact' && match !== 'NotOlderThan') {
    throw newBadRequest(
      `resourceVersionMatch: Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan"`
    );
  }
  if (match !== undefined && (rv === undefined || rv === '')) {
    throw newBadRequest(
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'
    );
  }
  if (o.continueToken) {
    if (match !== undefined)
      throw newBadRequest(
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'
      );
    // limit=n, continue=token: RV unset or "0" read at the token's version; any other RV is 400.
    if (rv !== undefined && rv !== '' && rv !== '0') {
      throw newBadRequest('specifying resource version is not allowed when using continue');
    }
    return { consistency: 'MOST_RECENT', continueToken: o.continueToken, limit: o.limit };
  }
  const limit = o.limit;
  if (match === 'Exact') {
    if (rv === '0')
      throw newBadRequest('resourceVersionMatch "Exact" is forbidden for resourceVersion "0"');
    return { consistency: 'EXACT', revision: parseRevision(rv ?? ''), limit };
  }
  if (match === 'NotOlderThan') {
    if (rv === '0') return { consistency: 'ANY', limit };
    return { consistency: 'NOT_OLDER_THAN', revision: parseRevision(rv ?? ''), limit };
  }
  if (rv === undefined || rv === '') return { consistency: 'MOST_RECENT', limit };
  if (rv === '0') return { consistency: 'ANY', limit };
  const revision = parseRevision(rv);
  return limit > 0
    ? { consistency: 'EXACT', revision, limit }
    : { consistency: 'NOT_OLDER_THAN', revision, limit };
}

/** The "resourceVersion semantics for get" table. */
export function getConsistency(rv: string | undefined): {
  consistency: Consistency & ('MOST_RECENT' | 'ANY' | 'NOT_OLDER_THAN');
  revision?: number;
} {
  if (rv === undefined || rv === '') return { consistency: 'MOST_RECENT' };
  if (rv === '0') return { consistency: 'ANY' };
  return { consistency: 'NOT_OLDER_THAN', revision: parseRevision(rv) };
}

/**
 * dryRun, a []string option (every repeated value counts): absent, bare (the spec's "no value"),
 * or `All`; anything else is 400.
 */
export function parseDryRun(q: URLSearchParams): boolean {
  const values = queryStrings(q, 'dryRun');
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== '' && v !== 'All')
      throw newBadRequest(
        `dryRun: Unsupported value: ${JSON.stringify(v)}: supported values: "All"`
      );
  }
  return true;
}
