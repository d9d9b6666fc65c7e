// The request target as a URL (k8s: req.URL, parsed by net/http): path and query of what the
// client sent, on a placeholder origin since only the target is the client's. Parsed once per
// request and target (the filters, the installer and the response writers each read it; a
// changed req.url would be parsed again). The URL is shared: read it, never change it (copy its
// searchParams to build another query).
import type { HttpRequest } from './handler.js';

const parsed = new WeakMap<HttpRequest, { target: string; url: URL }>();

export function requestUrl(req: HttpRequest): URL {
  const target = req.url ?? '/';
  const hit = parsed.get(req);
  if (hit?.target === target) return hit.url;
  const url = new URL(target, 'https://orch.invalid');
  parsed.set(req, { target, url });
  return url;
}
