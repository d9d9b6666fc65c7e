// The attach subresource of pods (k8s pkg/registry/core/pod/rest/subresources.go AttachREST,
// AttachLocation in pkg/registry/core/pod/strategy.go): the PodAttachOptions of the query, the
// container chosen, the pod's node resolved to its agent, and the client's upgrade relayed to
// the agent's /attach endpoint as exec's is (the agent speaks the stream protocol itself).
import { newBadRequest } from '@orch/apimachinery/errors';
import { agentUrl } from '../nodes/kubelet-client.js';
import { ContainerStreamRest, podExecOptionsFrom } from './exec-rest.js';

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

/** upstream's AttachREST check: at least one stream. */
function checkPodAttachOptions(o: PodAttachOptions): void {
  if (!o.stdin && !o.stdout && !o.stderr) {
    throw newBadRequest('you must specify at least 1 of stdin, stdout, stderr');
  }
}

/** k8s AttachREST. */
export class PodAttachRest extends ContainerStreamRest<PodAttachOptions> {
  protected readonly optionsKind = 'PodAttachOptions';
  protected options = podAttachOptionsFrom;
  protected check = checkPodAttachOptions;
  protected location = attachLocation;
}
