import type { RequestInfo } from './request-info.js';

/**
 * Requests that run as long as the client wants: watches, and the connections to a node's agent
 * (k8s BasicLongRunningRequestCheck with the verbs watch and proxy and the subresources attach,
 * exec, proxy, log and portforward). They escape the request timeout and in-flight limit.
 */
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export function isLongRunning(info: RequestInfo | undefined): boolean {
  if (!info) return false;
  if (info.verb === 'watch' || info.verb === 'proxy') return true;
  return info.isResourceRequest && longRunningSubresources.has(info.subresource);
}
