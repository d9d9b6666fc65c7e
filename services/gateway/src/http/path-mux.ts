// The non-resource endpoints' router (upstream's mux.PathRecorderMux): GET (and HEAD) and PUT
// routes by path pattern, `:name` matching one segment and a final `*name` the rest; a request no route
// takes goes to the fallback handler.
import type { Handler, HttpRequest, HttpResponse } from './handler.js';
import { requestUrl } from './request-url.js';

/** The values of a route's `:name` and `*name` segments, decoded. */
export type RouteParams = Readonly<Record<string, string>>;

export type RouteHandler = (
  req: HttpRequest,
  res: HttpResponse,
  params: RouteParams
) => void | Promise<void>;

interface Route {
  /** GET routes answer HEAD too. */
  method: 'GET' | 'PUT';
  segments: string[];
  handler: RouteHandler;
}

function split(path: string): string[] {
  const parts = path.split('/').slice(1);
  // One trailing slash is the same path (`/api/` is `/api`).
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function match(route: string[], path: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < route.length; i++) {
    const r = route[i]!;
    if (r.startsWith('*')) {
      const rest = path.slice(i);
      if (rest.length === 0 || rest.some((p) => p === '')) return undefined;
      params[r.slice(1)] = rest.map(decode).join('/');
      return params;
    }
    const p = path[i];
    if (p === undefined) return undefined;
    if (r.startsWith(':')) {
      if (p === '') return undefined;
      params[r.slice(1)] = decode(p);
    } else if (r !== p) {
      return undefined;
    }
  }
  return route.length === path.length ? params : undefined;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export class PathMux {
  readonly #routes: Route[] = [];

  /** Serves GET and HEAD of a path pattern; the first matching route answers. */
  get(pattern: string, handler: RouteHandler): void {
    this.#routes.push({ method: 'GET', segments: split(pattern), handler });
  }

  /** Serves PUT of a path pattern (upstream's /debug/flags/v is the one). */
  put(pattern: string, handler: RouteHandler): void {
    this.#routes.push({ method: 'PUT', segments: split(pattern), handler });
  }

  /** The mux as a handler; what it does not route goes to `fallback`. */
  handler(fallback: Handler): Handler {
    return (req, res) => {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (method === 'GET' || method === 'PUT') {
        const path = split(requestUrl(req).pathname);
        for (const route of this.#routes) {
          if (route.method !== method) continue;
          const params = match(route.segments, path);
          if (params) return route.handler(req, res, params);
        }
      }
      return fallback(req, res);
    };
  }
}
