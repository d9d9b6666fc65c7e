// The exec subresource of pods (k8s pkg/registry/core/pod/rest/subresources.go ExecREST,
// ExecLocation in pkg/registry/core/pod/strategy.go): the PodExecOptions of the query
// validated, the container chosen, the pod's node resolved to its agent, and the client's
// upgrade request relayed to the agent's /exec endpoint with the gateway's client certificate;
// once the agent switched protocols the two connections are piped both ways (upstream's
// UpgradeAwareHandler), so the agent speaks the stream protocol (WebSocket channels) itself.
import type { Duplex } from 'node:stream';
import { newBadRequest } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { HttpRequest, HttpResponse } from '../../../http/handler.js';
import type { ConnectHandler, Connecter, ObjectKind, RestContext } from '../../rest.js';
import type { Store } from '../../store.js';
import { agentUrl, connectionInfo } from '../nodes/kubelet-client.js';
import type { KubeletClient } from '../nodes/kubelet-client.js';
import { ProxiedAnswer, forwardedHeaders } from '../nodes/proxy-rest.js';
import { podContainer } from './log-rest.js';

/** core.PodExecOptions as the query carries it. */
export interface PodExecOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
  container: string;
  command: string[];
}

/** Go's strconv.ParseBool, as the parameter codec reads a bool. */
function parseBool(v: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw newBadRequest(`strconv.ParseBool: parsing "${v}": invalid syntax`);
}

export function podExecOptionsFrom(q: URLSearchParams): PodExecOptions {
  const bool = (name: string): boolean => {
    const v = q.get(name);
    return v !== null && parseBool(v);
  };
  return {
    stdin: bool('stdin'),
    stdout: bool('stdout'),
    stderr: bool('stderr'),
    tty: bool('tty'),
    container: q.get('container') ?? '',
    command: q.getAll('command'),
  };
}

/** k8s ExecLocation's checks (the messages of pod/strategy.go streamLocation). */
export function checkPodExecOptions(o: PodExecOptions): void {
  if (o.command.length === 0) throw newBadRequest('you must specify at least 1 command');
  if (!o.stdin && !o.stdout && !o.stderr) {
    throw newBadRequest('you must specify at least 1 of stdin, stdout, stderr');
  }
}

/** The agent's exec URL (streamParams: `input`, `output`, `error`, `tty` as `1`). */
export function execLocation(
  host: string,
  port: number,
  ns: string,
  pod: string,
  container: string,
  o: PodExecOptions
): URL {
  const url = agentUrl('exec', host, port, ns, pod, container);
  for (const c of o.command) url.searchParams.append('command', c);
  if (o.stdin) url.searchParams.set('input', '1');
  if (o.stdout) url.searchParams.set('output', '1');
  if (o.stderr) url.searchParams.set('error', '1');
  if (o.tty) url.searchParams.set('tty', '1');
  return url;
}

/** The 101 answer of the agent, written to the client's connection as it came. */
function switchingProtocols(rawHeaders: readonly string[]): string {
  let head = 'HTTP/1.1 101 Switching Protocols\r\n';
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    head += `${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`;
  return `${head}\r\n`;
}

/** Pipes two connections both ways; resolves when both are closed. */
export function pipeBoth(a: Duplex, b: Duplex): Promise<void> {
  return new Promise((resolve) => {
    let open = 2;
    const closed = (other: Duplex) => (): void => {
      other.destroy();
      if (--open === 0) resolve();
    };
    a.once('close', closed(b));
    b.once('close', closed(a));
    a.on('error', () => a.destroy());
    b.on('error', () => b.destroy());
    a.pipe(b);
    b.pipe(a);
  });
}

/** k8s UpgradeAwareHandler with UpgradeRequired: relays the client's upgrade to `url`. */
export class UpgradeRelay implements ConnectHandler {
  constructor(
    private readonly kubelet: KubeletClient,
    readonly url: URL
  ) {}

  async serve(req: HttpRequest, res: HttpResponse): Promise<void> {
    const protocol = req.headers.upgrade;
    if (req.httpVersion !== '1.1' || !protocol) throw newBadRequest('Upgrade request required');
    const headers = { ...forwardedHeaders(req.headers), connection: 'Upgrade', upgrade: protocol };
    // The client's method goes on: GET for WebSocket, POST for SPDY (upstream's proxy keeps it).
    const answer = await this.kubelet.upgrade(this.url, headers, req.method);
    if (!answer.socket) return new ProxiedAnswer(answer.response).serve(req, res);
    const client = req.socket;
    client.write(switchingProtocols(answer.response.rawHeaders));
    if (answer.head && answer.head.length > 0) client.write(answer.head);
    await pipeBoth(client, answer.socket);
  }
}

const podKind: ObjectKind = { group: '', version: 'v1', kind: 'Pod', namespaced: true };
type Json = Record<string, unknown>;

/** The pod's agent URL base, or a BadRequest when the pod is on no node (upstream's message). */
export async function podAgent(
  nodes: Store,
  kubelet: KubeletClient,
  pod: ApiObject,
  name: string
): Promise<{ hostname: string; port: number }> {
  const nodeName = String(((pod['spec'] ?? {}) as Json)['nodeName'] ?? '');
  if (nodeName === '') throw newBadRequest(`pod ${name} does not have a host assigned`);
  const node = await nodes.get({}, nodeName, { consistency: 'MOST_RECENT' });
  return connectionInfo(node, kubelet.preferredAddressTypes);
}

/**
 * A pod's container stream reached through its node's agent (upstream's ExecREST and AttachREST):
 * GET (WebSocket) and POST (SPDY) upgrade requests; the options of the query checked, the
 * container chosen, the upgrade relayed to the agent URL the options make.
 */
export abstract class ContainerStreamRest<O extends { container: string }> implements Connecter {
  readonly objectKind = podKind;
  readonly connectMethods = ['GET', 'POST'] as const;
  readonly createOnGet = true;
  /** The options kind admission sees (PodExecOptions, PodAttachOptions). */
  protected abstract readonly optionsKind: string;

  constructor(
    private readonly pods: Store,
    private readonly nodes: Store,
    private readonly kubelet: KubeletClient
  ) {}

  /** The options of the query; throws a BadRequest for options upstream refuses. */
  protected abstract options(query: URLSearchParams): O;
  /** The agent's URL for the container stream. */
  protected abstract location(
    agent: { hostname: string; port: number },
    ns: string,
    pod: string,
    container: string,
    o: O
  ): URL;
  /** Upstream's checks of the options (run once the container is known). */
  protected abstract check(o: O): void;

  connectOptions(_name: string, query: URLSearchParams): ApiObject {
    return { apiVersion: 'v1', kind: this.optionsKind, metadata: {}, ...this.options(query) };
  }

  async connect(ctx: RestContext, name: string, query: URLSearchParams): Promise<ConnectHandler> {
    const opts = this.options(query);
    const pod = await this.pods.get(ctx, name, { consistency: 'MOST_RECENT' });
    const container = podContainer(pod, opts.container);
    this.check(opts);
    const agent = await podAgent(this.nodes, this.kubelet, pod, name);
    const url = this.location(agent, ctx.namespace ?? '', name, container, opts);
    return new UpgradeRelay(this.kubelet, url);
  }
}

/** k8s ExecREST. */
export class PodExecRest extends ContainerStreamRest<PodExecOptions> {
  protected readonly optionsKind = 'PodExecOptions';
  protected options = podExecOptionsFrom;
  protected check = checkPodExecOptions;
  protected location(
    a: { hostname: string; port: number },
    ns: string,
    pod: string,
    container: string,
    o: PodExecOptions
  ): URL {
    return execLocation(a.hostname, a.port, ns, pod, container, o);
  }
}
