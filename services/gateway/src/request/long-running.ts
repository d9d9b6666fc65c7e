import type { RequestInfo } from './request-info.js';

/** Watches run as long as the client wants; they escape the request timeout and in-flight limit. */
export function isLongRunning(info: RequestInfo | undefined): boolean {
  return !!info && info.verb === 'watch';
}
