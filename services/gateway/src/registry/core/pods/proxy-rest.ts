// The proxy subresource of pods (k8s pkg/registry/core/pod/rest/subresources.go ProxyREST, with
// ResourceLocation of pkg/registry/core/pod/strategy.go): /pods/<[scheme:]name[:port]>/proxy/<path>
// goes to the pod's IP, on the port named or else the first port of its first container that
// declares one, through the proxy transport; loopback and link-local addresses are refused, as
// upstream's IsProxyableIP refuses them.
import { isIP } from 'node:net';
import { newBadRequest } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { bodyFrom } from '../../../request/context.js';
import type { ConnectHandler, Connecter, ObjectKind, RestContext } from '../../rest.js';
import type { Store } from '../../store.js';
import { urlHost } from '../nodes/kubelet-client.js';
import {
  ProxiedAnswer,
  forwardedHeaders,
  proxyMethods,
  splitSchemeNamePort,
} from '../nodes/proxy-rest.js';
import type { ProxyTransport } from '../proxy-transport.js';
import { forwardedUri } from '../proxy-transport.js';

type Json = Record<string, unknown>;
const podKind: ObjectKind = { group: '', version: 'v1', kind: 'Pod', namespaced: true };

/** upstream's proxyutil.IsProxyableIP: "address not allowed" for loopback and link-local. */
export function checkProxyableIP(ip: string): void {
  const v = isIP(ip);
  const notAllowed =
    v === 0 ||
    (v === 4 && (/^127\./.test(ip) || /^169\.254\./.test(ip) || /^224\.0\.0\./.test(ip))) ||
    (v === 6 &&
      (/^::1$|^0*:0*:0*:0*:0*:0*:0*:0*1$/i.test(ip) ||
        /^fe[89ab]/i.test(ip) ||
        /^ff0[12]:/i.test(ip)));
  if (notAllowed) throw newBadRequest('address not allowed');
}

/** k8s pod ResourceLocation: the URL of `id` (`[scheme:]name[:port]`) for its pod. */
export function podLocation(pod: ApiObject, id: string): URL {
  const { scheme, port: asked } = splitSchemeNamePort(id, 'pod');
  let port = asked;
  if (port === '') {
    const containers = (((pod['spec'] ?? {}) as Json)['containers'] ?? []) as Json[];
    for (const c of containers) {
      const first = ((c['ports'] ?? []) as Json[])[0];
      if (first) {
        port = String(first['containerPort']);
        break;
      }
    }
  }
  const status = (pod['status'] ?? {}) as { podIP?: string; podIPs?: { ip?: string }[] };
  const ip = status.podIPs?.[0]?.ip ?? status.podIP ?? '';
  checkProxyableIP(ip);
  const host = port ? urlHost(ip, Number(port)) : ip.includes(':') ? `[${ip}]` : ip;
  return new URL(`${scheme || 'http'}://${host}`);
}

/** A ConnectHandler relaying the request to `base` + the `path` option through the transport. */
export function proxyTo(
  transport: ProxyTransport,
  base: URL,
  query: URLSearchParams
): ConnectHandler {
  const url = new URL(base.href);
  url.pathname = query.get('path') ?? '/';
  const rest = new URLSearchParams(query);
  rest.delete('path');
  url.search = rest.toString();
  return {
    serve: async (req, res) => {
      const requestPath = new URL(req.url ?? '/', 'http://x').pathname;
      const headers = {
        ...forwardedHeaders(req.headers),
        'x-forwarded-uri': forwardedUri(requestPath, url.pathname),
      };
      const answer = await transport.request(req.method ?? 'GET', url, headers, bodyFrom(req));
      await new ProxiedAnswer(answer).serve(req, res);
    },
  };
}

/** k8s pod ProxyREST. */
export class PodProxyRest implements Connecter {
  readonly objectKind = podKind;
  readonly connectMethods = proxyMethods;

  constructor(
    private readonly pods: Store,
    private readonly transport: ProxyTransport
  ) {}

  connectOptions(_name: string, query: URLSearchParams): ApiObject {
    return {
      apiVersion: 'v1',
      kind: 'PodProxyOptions',
      metadata: {},
      path: query.get('path') ?? '',
    };
  }

  async connect(ctx: RestContext, id: string, query: URLSearchParams): Promise<ConnectHandler> {
    const { name } = splitSchemeNamePort(id, 'pod');
    const pod = await this.pods.get(ctx, name, { consistency: 'MOST_RECENT' });
    return proxyTo(this.transport, podLocation(pod, id), query);
  }
}
