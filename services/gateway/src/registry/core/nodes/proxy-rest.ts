// The proxy subresource of nodes (k8s pkg/registry/core/node/rest/proxy.go ProxyREST, with
// ResourceLocation of pkg/registry/core/node/strategy.go): /nodes/<name>[:<port>]/proxy/<path>
// goes to the node's agent at the address --kubelet-preferred-address-types picks, with the
// gateway's client certificate; the answer is relayed as it comes (upstream's
// UpgradeAwareHandler for requests without an upgrade).
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { newBadRequest } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { HttpRequest, HttpResponse } from '../../../http/handler.js';
import { bodyFrom } from '../../../request/context.js';
import type { ConnectHandler, Connecter, ObjectKind, RestContext } from '../../rest.js';
import type { Store } from '../../store.js';
import { connectionInfo, relayAgentAnswer, urlHost } from './kubelet-client.js';
import type { KubeletClient } from './kubelet-client.js';

/** The methods upstream's proxy routes take. */
export const proxyMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** Hop-by-hop headers (Go's httputil.ReverseProxy), and the client's credentials. */
const notForwarded = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'authorization',
  'content-length',
]);

export function forwardedHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || notForwarded.has(name) || name.startsWith('impersonate-')) continue;
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** k8s utilnet.SplitSchemeNamePort: `[scheme:]name[:port]`; `what` names the request (node, pod, service). */
export function splitSchemeNamePort(
  id: string,
  what = 'node'
): { scheme: string; name: string; port: string } {
  const parts = id.split(':');
  let scheme = '';
  let name = '';
  let port = '';
  if (parts.length === 1) name = parts[0] ?? '';
  else if (parts.length === 2) [name = '', port = ''] = parts;
  else if (parts.length === 3) [scheme = '', name = '', port = ''] = parts;
  if (name === '' || (scheme !== '' && scheme !== 'http' && scheme !== 'https')) {
    throw newBadRequest(`invalid ${what} request ${JSON.stringify(id)}`);
  }
  return { scheme, name, port };
}

/** Relays an agent's answer: status, headers but the hop-by-hop ones, the body as it comes. */
export class ProxiedAnswer implements ConnectHandler {
  constructor(readonly source: IncomingMessage) {}

  serve(_req: HttpRequest, res: HttpResponse): Promise<void> {
    const source = this.source;
    res.statusCode = source.statusCode ?? 502;
    for (const [name, value] of Object.entries(source.headers)) {
      if (notForwarded.has(name) || value === undefined) continue;
      res.setHeader(name, value);
    }
    res.flushHeaders();
    return relayAgentAnswer(source, res);
  }
}

const nodeKind: ObjectKind = { group: '', version: 'v1', kind: 'Node', namespaced: false };

/** k8s node ProxyREST. */
export class NodeProxyRest implements Connecter {
  readonly objectKind = nodeKind;
  readonly connectMethods = proxyMethods;

  constructor(
    private readonly nodes: Store,
    private readonly kubelet: KubeletClient
  ) {}

  connectOptions(_name: string, query: URLSearchParams): ApiObject {
    return {
      apiVersion: 'v1',
      kind: 'NodeProxyOptions',
      metadata: {},
      path: query.get('path') ?? '',
    };
  }

  async connect(_ctx: RestContext, id: string, query: URLSearchParams): Promise<ConnectHandler> {
    const { name, port } = splitSchemeNamePort(id);
    const node = await this.nodes.get({}, name, { consistency: 'MOST_RECENT' });
    const info = connectionInfo(node, this.kubelet.preferredAddressTypes);
    const url = new URL(`https://${urlHost(info.hostname, port ? Number(port) : info.port)}`);
    url.pathname = query.get('path') ?? '/';
    const rest = new URLSearchParams(query);
    rest.delete('path');
    url.search = rest.toString();
    return {
      serve: async (req, res) => {
        const answer = await this.kubelet.proxy(
          req.method ?? 'GET',
          url,
          forwardedHeaders(req.headers),
          bodyFrom(req)
        );
        await new ProxiedAnswer(answer).serve(req, res);
      },
    };
  }
}
