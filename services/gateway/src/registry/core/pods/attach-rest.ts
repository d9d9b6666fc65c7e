// The attach subresource of pods (k8s pkg/registry/core/pod/rest/subresources.go AttachREST,
// AttachLocation in pkg/registry/core/pod/strategy.go): the PodAttachOptions of the query, the
// container chosen, the pod's node resolved to its agent, and the client's upgrade relayed to
// the agent's /attach endpoint as exec's is (the agent speaks the stream protocol itself).
import type { ApiObject } from '@orch/apimachinery/meta';
import { newBadRequest } from '@orch/apimachinery/errors';
import type { ConnectHandler, Connecter, ObjectKind, RestContext } from '../../rest.js';
import type { Store } from '../../store.js';
import { agentUrl } from '../nodes/kubelet-client.js';
import type { KubeletClient } from '../nodes/kubelet-client.js';
import { UpgradeRelay, podAgent, podExecOptionsFrom } from './exec-rest.js';
import { podContainer } from './log-rest.js';

/** core.PodAttachOptions as the query carries it. */
export interface PodAttachOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
  container: string;
}

export function podAttachOptionsFrom(q: URLSearchParams): PodAttachOptions {
  const { stdin, stdout, stderr, tty, container } = podExecOptionsFrom(q);
  return { stdin, stdout, stderr, tty, container };
}

/** The agent's attach URL (streamParams: `input`, `output`, `error`, `tty` as `1`). */
export function attachLocation(
  info: { hostname: string; port: number },
  ns: string,
  pod: string,
  container: string,
  o: PodAttachOptions
): URL {
  const url = agentUrl('attach', info.hostname, info.port, ns, pod, container);
  if (o.stdin) url.searchParams.set('input', '1');
  if (o.stdout) url.searchParams.set('output', '1');
  if (o.stderr) url.searchParams.set('error', '1');
  if (o.tty) url.searchParams.set('tty', '1');
  return url;
}

const podKind: ObjectKind = { group: '', version: 'v1', kind: 'Pod', namespaced: true };

/** k8s AttachREST: GET (WebSocket) and POST (SPDY) upgrade requests. */
export class PodAttachRest implements Connecter {
  readonly objectKind = podKind;
  readonly connectMethods = ['GET', 'POST'] as const;
  readonly createOnGet = true;

  constructor(
    private readonly pods: Store,
    private readonly nodes: Store,
    private readonly kubelet: KubeletClient
  ) {}

  connectOptions(_name: string, query: URLSearchParams): ApiObject {
    const o = podAttachOptionsFrom(query);
    return { apiVersion: 'v1', kind: 'PodAttachOptions', metadata: {}, ...o };
  }

  async connect(ctx: RestContext, name: string, query: URLSearchParams): Promise<ConnectHandler> {
    const opts = podAttachOptionsFrom(query);
    const pod = await this.pods.get(ctx, name, { consistency: 'MOST_RECENT' });
    const container = podContainer(pod, opts.container);
    if (!opts.stdin && !opts.stdout && !opts.stderr) {
      throw newBadRequest('you must specify at least 1 of stdin, stdout, stderr');
    }
    const info = await podAgent(this.nodes, this.kubelet, pod, name);
    const url = attachLocation(info, ctx.namespace ?? '', name, container, opts);
    return new UpgradeRelay(this.kubelet, url);
  }
}
