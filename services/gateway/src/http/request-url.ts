// The request target as a URL (k8s: req.URL, parsed by net/http): path and query of what the
// client sent, on a placeholder origin since only the target is the client's.
import type { HttpRequest } from './handler.js';

export function requestUrl(req: HttpRequest): URL {
  return new URL(req.url ?? '/', 'https://orch.invalid');
}
