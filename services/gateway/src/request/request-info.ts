// Request info: what a request is about, parsed from its path and method alone
// (k8s apiserver/pkg/endpoints/request/requestinfo.go).
import { queryBool } from './query-params.js';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; or the lowercased method for non-resource paths. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  parts: string[];
}

const namespaceSubresources = new Set(['status', 'finalize']);

export function requestInfoOf(method: string, url: URL): RequestInfo {
  const path = url.pathname;
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
  let parts = path
    .split('/')
    .filter((p) => p !== '')
    .map((p) => (p.includes('%') ? decodeURIComponent(p) : p));
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return info;
  info.apiPrefix = prefix;
  parts = parts.slice(1);
  if (prefix === 'apis') {
    if (parts.length < 2) return info; // /apis, /apis/<group>: discovery
    info.apiGroup = parts[0] ?? '';
    parts = parts.slice(1);
  } else if (parts.length < 1) {
    return info; // /api
  }
  info.apiVersion = parts[0] ?? '';
  parts = parts.slice(1);
  if (parts.length === 0) return info; // /api/v1, /apis/<g>/<v>: discovery
  info.isResourceRequest = true;

  // /watch/<resource path>: the older spelling of ?watch=true (k8s specialVerbs).
  const watchPrefix = parts[0] === 'watch' && parts.length > 1;
  if (watchPrefix) parts = parts.slice(1);
  switch (method) {
    case 'POST':
      info.verb = 'create';
      break;
    case 'GET':
    case 'HEAD':
      info.verb = 'get';
      break;
    case 'PUT':
      info.verb = 'update';
      break;
    case 'PATCH':
      info.verb = 'patch';
      break;
    case 'DELETE':
      info.verb = 'delete';
      break;
    default:
      info.verb = '';
  }

  // /namespaces/<ns>/<resource>... but /namespaces/<ns> and /namespaces/<ns>/status are the namespace itself.
  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1] ?? '';
    if (parts.length > 2 && !namespaceSubresources.has(parts[2] ?? '')) parts = parts.slice(2);
  }
  info.parts = parts;
  info.resource = parts[0] ?? '';
  if (parts.length >= 2) info.name = parts[1] ?? '';
  if (parts.length >= 3) info.subresource = parts[2] ?? '';
  if (info.resource === 'namespaces' && parts.length >= 2) {
    info.name = parts[1] ?? '';
    info.namespace = info.name;
  }

  // watch is a bool option as upstream reads it: `?watch`, `?watch=1`, `?watch=True` all watch.
  const isWatch = watchPrefix || queryBool(url.searchParams, 'watch');
  if (info.verb === 'get' && parts.length === 1) info.verb = isWatch ? 'watch' : 'list';
  else if (info.verb === 'get' && isWatch) info.verb = 'watch';
  if (info.verb === 'delete' && parts.length === 1) info.verb = 'deletecollection';
  return info;
}
