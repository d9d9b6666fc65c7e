// The portforward subresource of pods (k8s pkg/registry/core/pod/rest/subresources.go
// PortForwardREST, PortForwardLocation in pkg/registry/core/pod/strategy.go): the pod's node
// resolved to its agent and the upgrade relayed to the agent's /portForward/{namespace}/{pod},
// where the agent speaks SPDY/3.1 with the portforward.k8s.io protocol.
//
// kubectl 1.32 asks for a WebSocket whose subprotocol is `SPDY/3.1+portforward.k8s.io`: SPDY
// tunnelled inside WebSocket binary messages (upstream's PortForwardWebsockets, on by default).
// As upstream's TunnelingHandler (k8s.io/apiserver pkg/util/proxy/streamtunnel.go), the gateway
// then upgrades to the agent with SPDY (POST, `Upgrade: SPDY/3.1`, the tunnelled protocols as
// X-Stream-Protocol-Version), accepts the client's WebSocket with the protocol the agent chose,
// and carries the SPDY bytes between the two: each binary message's payload to the agent, and
// what the agent writes as binary messages. A plain SPDY upgrade (kubectl's fallback) is relayed
// as exec's is.
import { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { newBadRequest } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { HttpRequest, HttpResponse } from '../../../http/handler.js';
import type { ConnectHandler, Connecter, ObjectKind, RestContext } from '../../rest.js';
import type { Store } from '../../store.js';
import { urlHost } from '../nodes/kubelet-client.js';
import type { KubeletClient } from '../nodes/kubelet-client.js';
import { ProxiedAnswer, forwardedHeaders } from '../nodes/proxy-rest.js';
import { UpgradeRelay, podAgent } from './exec-rest.js';

/** k8s.io/apimachinery pkg/util/portforward: WebsocketsSPDYTunnelingPrefix, KubernetesSuffix. */
const tunnelingPrefix = 'SPDY/3.1+';
/** Bytes queued to the client above which the agent's connection is paused, and resumed below. */
const tunnelHighWater = 1 << 20;
const tunnelLowWater = 256 << 10;
const kubernetesSuffix = '.k8s.io';

/** core.PodPortForwardOptions as the query carries it (`ports`, repeated). */
export interface PodPortForwardOptions {
  ports: number[];
}

export function podPortForwardOptionsFrom(q: URLSearchParams): PodPortForwardOptions {
  return {
    ports: q.getAll('ports').map((v) => {
      const n = Number(v);
      if (!/^[+-]?\d+$/.test(v) || n < -(2 ** 31) || n >= 2 ** 31)
        throw newBadRequest(`strconv.ParseInt: parsing "${v}": invalid syntax`);
      return n;
    }),
  };
}

/** The agent's port-forward URL: the ports, each as `port` (upstream's streamParams). */
export function portForwardLocation(
  agent: { hostname: string; port: number },
  ns: string,
  pod: string,
  o: PodPortForwardOptions
): URL {
  const path = [ns, pod].map(encodeURIComponent).join('/');
  const url = new URL(`https://${urlHost(agent.hostname, agent.port)}/portForward/${path}`);
  for (const p of o.ports) url.searchParams.append('port', String(p));
  return url;
}

/** The SPDY protocols a WebSocket request tunnels (`SPDY/3.1+<p>.k8s.io` subprotocols). */
export function tunneledSpdyProtocols(req: Pick<HttpRequest, 'headers'>): string[] {
  if (String(req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return [];
  return String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.startsWith(tunnelingPrefix) && p.endsWith(kubernetesSuffix))
    .map((p) => p.slice(tunnelingPrefix.length));
}

/** k8s TunnelingHandler: SPDY to the agent, tunnelled in the client's WebSocket. */
export class SpdyTunnelRelay implements ConnectHandler {
  constructor(
    private readonly kubelet: KubeletClient,
    readonly url: URL,
    private readonly protocols: string[]
  ) {}

  async serve(req: HttpRequest, res: HttpResponse): Promise<void> {
    // A WebSocket upgrade is an HTTP/1.1 request (HTTP/2 has no Upgrade).
    if (!(req instanceof IncomingMessage)) throw newBadRequest('Upgrade request required');
    const headers = forwardedHeaders(req.headers);
    for (const name of Object.keys(headers))
      if (name.startsWith('sec-websocket-')) delete headers[name];
    Object.assign(headers, {
      connection: 'Upgrade',
      upgrade: 'SPDY/3.1',
      'x-stream-protocol-version': this.protocols,
    });
    const answer = await this.kubelet.upgrade(this.url, headers, 'POST');
    if (!answer.socket) return new ProxiedAnswer(answer.response).serve(req, res);
    const agent = answer.socket;
    if (answer.head && answer.head.length > 0) agent.unshift(answer.head);
    if (
      !String(answer.response.headers.upgrade ?? '')
        .toLowerCase()
        .includes('spdy/3.1')
    ) {
      agent.destroy();
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('unable to upgrade: missing upgrade headers in response\n');
      return;
    }
    const chosen = String(answer.response.headers['x-stream-protocol-version'] ?? '').trim();
    // `SPDY/3.1+...` is not an RFC 7230 token (the '/'), which ws refuses in an offer: the
    // protocol is chosen here (as gorilla's Upgrader does from its list) and written into the
    // 101 through ws's 'headers' event.
    delete req.headers['sec-websocket-protocol'];
    const wss = new WebSocketServer({ noServer: true });
    if (chosen)
      wss.on('headers', (lines) =>
        lines.push(`Sec-WebSocket-Protocol: ${tunnelingPrefix}${chosen}`)
      );
    // A handshake ws refuses (no key, a bad version) is answered 400 by ws, which then closes
    // the connection without calling back: the agent's connection goes too.
    const ws = await new Promise<WebSocket | undefined>((resolve) => {
      req.socket.once('close', () => resolve(undefined));
      wss.handleUpgrade(req, req.socket, Buffer.alloc(0), resolve);
    });
    if (!ws) return void agent.destroy();
    await tunnel(ws, agent);
  }
}

/** Carries bytes between a WebSocket's binary messages and a connection; resolves when both end. */
function tunnel(ws: WebSocket, conn: Duplex): Promise<void> {
  return new Promise((resolve) => {
    let open = 2;
    const closed = (): void => {
      if (--open === 0) resolve();
    };
    // Each side waits for the slower one, as Go's io.Copy does: the agent's connection is paused
    // while the client has not taken what was sent, the client's messages while the agent has not.
    conn.on('data', (chunk: Buffer) => {
      ws.send(chunk, { binary: true }, () => {
        if (conn.isPaused() && ws.bufferedAmount < tunnelLowWater) conn.resume();
      });
      if (ws.bufferedAmount >= tunnelHighWater) conn.pause();
    });
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary && !conn.write(data)) {
        ws.pause();
        conn.once('drain', () => ws.resume());
      }
    });
    conn.on('error', () => conn.destroy());
    ws.on('error', () => ws.terminate());
    conn.once('close', () => {
      ws.close(1000);
      closed();
    });
    ws.once('close', () => {
      conn.destroy();
      closed();
    });
  });
}

const podKind: ObjectKind = { group: '', version: 'v1', kind: 'Pod', namespaced: true };

/** k8s PortForwardREST. */
export class PodPortForwardRest implements Connecter {
  readonly objectKind = podKind;
  readonly connectMethods = ['GET', 'POST'] as const;
  readonly createOnGet = true;

  constructor(
    private readonly pods: Store,
    private readonly nodes: Store,
    private readonly kubelet: KubeletClient
  ) {}

  connectOptions(_name: string, query: URLSearchParams): ApiObject {
    return {
      apiVersion: 'v1',
      kind: 'PodPortForwardOptions',
      metadata: {},
      ...podPortForwardOptionsFrom(query),
    };
  }

  async connect(ctx: RestContext, name: string, query: URLSearchParams): Promise<ConnectHandler> {
    const opts = podPortForwardOptionsFrom(query);
    const pod = await this.pods.get(ctx, name, { consistency: 'MOST_RECENT' });
    const agent = await podAgent(this.nodes, this.kubelet, pod, name);
    const url = portForwardLocation(agent, ctx.namespace ?? '', name, opts);
    return new PortForwardHandler(this.kubelet, url);
  }
}

/** upstream's translating handler: the tunnel for a tunnelling WebSocket, else the plain relay. */
class PortForwardHandler implements ConnectHandler {
  constructor(
    private readonly kubelet: KubeletClient,
    readonly url: URL
  ) {}

  serve(req: HttpRequest, res: HttpResponse): Promise<void> {
    const protocols = tunneledSpdyProtocols(req);
    if (protocols.length > 0)
      return new SpdyTunnelRelay(this.kubelet, this.url, protocols).serve(req, res);
    return new UpgradeRelay(this.kubelet, this.url).serve(req, res);
  }
}
