// The aggregation proxy (kube-aggregator pkg/apiserver/handler_proxy.go): a request under
// `/apis/<group>/<version>` whose APIService names a service goes, after authentication and
// authorization, to the extension server, with the front-proxy client certificate and the user in
// X-Remote-User, X-Remote-Group and X-Remote-Extra-<key>. An APIService whose Available condition
// is not True, or whose service has no address, answers 503 "service unavailable" as upstream.
// The body and the answer are streamed both ways (a watch is relayed as it comes).
// Where the service is dialled: the address map (`<name>.<namespace>.svc[:<port>]` to host:port,
// as for webhooks: there is no cluster DNS), else an ExternalName's name, else a ready endpoint
// of the service's EndpointSlices for the APIService's port.
import { request as httpsRequest } from 'node:https';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Handler, HttpRequest, HttpResponse } from '../http/handler.js';
import { requestInfoFrom, userFrom } from '../request/context.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The objects the proxy reads, from the gateway's watch caches. */
export interface AggregatorLookups {
  /** An APIService by name (`<version>.<group>`). */
  apiService(name: string): Obj | undefined;
  service(namespace: string, name: string): Obj | undefined;
  /** The EndpointSlices labelled `kubernetes.io/service-name: <name>` in the namespace. */
  endpointSlices(namespace: string, name: string): Obj[];
}

export interface AggregatorProxyConfig {
  lookups: AggregatorLookups;
  /** --webhook-service-addresses. */
  serviceAddresses: Readonly<Record<string, string>>;
  /** --proxy-client-cert-file / --proxy-client-key-file, PEM. */
  clientCert?: Buffer;
  clientKey?: Buffer;
}

/** The proxied APIService of a request, or undefined when the gateway serves it itself. */
export function proxiedAPIService(req: HttpRequest, lookups: AggregatorLookups): Obj | undefined {
  const info = requestInfoFrom(req);
  if (!info || info.apiPrefix !== 'apis' || !info.apiGroup || !info.apiVersion) return undefined;
  const api = lookups.apiService(`${info.apiVersion}.${info.apiGroup}`);
  return api && obj(obj(api['spec'])['service'])['name'] ? api : undefined;
}

export const isAvailable = (api: Obj): boolean =>
  arr(obj(api['status'])['conditions']).some(
    (c) => str(obj(c)['type']) === 'Available' && str(obj(c)['status']) === 'True'
  );

/**
 * The host and port a service reference is dialled at (upstream's ResolveEndpoint), or an Error
 * saying why there is none.
 */
export function resolveService(
  ref: { namespace: string; name: string; port: number },
  c: Pick<AggregatorProxyConfig, 'lookups' | 'serviceAddresses'>
): { host: string; port: number } | Error {
  const key = `${ref.name}.${ref.namespace}.svc`;
  const mapped = c.serviceAddresses[`${key}:${ref.port}`] ?? c.serviceAddresses[key];
  if (mapped) {
    const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(mapped);
    if (m) return { host: m[1] ?? m[2] ?? '', port: Number(m[3]) };
  }
  const svc = c.lookups.service(ref.namespace, ref.name);
  if (!svc) return new Error(`service "${ref.namespace}/${ref.name}" not found`);
  const spec = obj(svc['spec']);
  if (spec['type'] === 'ExternalName') return { host: str(spec['externalName']), port: ref.port };
  const svcPort = arr(spec['ports'])
    .map(obj)
    .find((p) => p['port'] === ref.port);
  if (!svcPort) return new Error(`no service port ${ref.port} found for service "${ref.name}"`);
  const portName = str(svcPort['name']);
  for (const slice of c.lookups.endpointSlices(ref.namespace, ref.name)) {
    const port = arr(slice['ports'])
      .map(obj)
      .find((p) => str(p['name']) === portName);
    if (!port || typeof port['port'] !== 'number') continue;
    const ready = arr(slice['endpoints'])
      .map(obj)
      .filter((e) => obj(e['conditions'])['ready'] !== false);
    const addresses = ready.flatMap((e) => arr(e['addresses']).map(str)).filter(Boolean);
    if (addresses.length > 0)
      return {
        host: addresses[Math.floor(Math.random() * addresses.length)]!,
        port: port['port'],
      };
  }
  return new Error(`no endpoints available for service "${ref.name}"`);
}

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'authorization',
]);

function proxyError(res: HttpResponse, message: string, code: number): void {
  res.statusCode = code;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${message}\n`);
}

/** The headers sent on: the client's, less hop-by-hop, credentials and any X-Remote-*, plus the user's. */
export function proxiedHeaders(req: HttpRequest): OutgoingHttpHeaders | undefined {
  const user = userFrom(req);
  if (!user) return undefined;
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (k.startsWith(':') || hopByHop.has(k) || k.startsWith('x-remote-')) continue;
    if (k.startsWith('impersonate-')) continue;
    if (v !== undefined) out[k] = v;
  }
  out['x-remote-user'] = user.name;
  if (user.groups.length > 0) out['x-remote-group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {}))
    out[`x-remote-extra-${encodeURIComponent(key)}`] = [...values];
  return out;
}

/** The proxy stage: proxied group versions go to their extension server, others to next. */
export function withAggregation(next: Handler, c: AggregatorProxyConfig): Handler {
  return (req, res) => {
    const api = proxiedAPIService(req, c.lookups);
    if (!api) return next(req, res);
    const headers = proxiedHeaders(req);
    if (!headers) return proxyError(res, 'missing user', 500);
    if (!isAvailable(api)) return proxyError(res, 'service unavailable', 503);
    const spec = obj(api['spec']);
    const svc = obj(spec['service']);
    const ref = {
      namespace: str(svc['namespace']),
      name: str(svc['name']),
      port: typeof svc['port'] === 'number' ? svc['port'] : 443,
    };
    const target = resolveService(ref, c);
    if (target instanceof Error) return proxyError(res, 'service unavailable', 503);
    const caBundle = str(spec['caBundle']);
    const upstream = httpsRequest({
      host: target.host,
      port: target.port,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: { ...headers, host: `${ref.name}.${ref.namespace}.svc` },
      servername: `${ref.name}.${ref.namespace}.svc`,
      rejectUnauthorized: spec['insecureSkipTLSVerify'] !== true,
      ...(caBundle ? { ca: Buffer.from(caBundle, 'base64') } : {}),
      ...(c.clientCert && c.clientKey ? { cert: c.clientCert, key: c.clientKey } : {}),
    });
    upstream.on('response', (answer) => {
      res.statusCode = answer.statusCode ?? 502;
      for (const [k, v] of Object.entries(answer.headers))
        if (v !== undefined && !hopByHop.has(k)) res.setHeader(k, v);
      // Headers now, so a watch's client sees the answer before its first event.
      (res as HttpResponse & { flushHeaders?: () => void }).flushHeaders?.();
      answer.pipe(res);
      res.on('close', () => answer.destroy());
    });
    upstream.on('error', (err) => {
      if (res.headersSent) res.destroy(err);
      else proxyError(res, `Error trying to reach service: ${err.message}`, 503);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };
}
