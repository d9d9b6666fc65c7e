// The log subresource of pods (k8s pkg/registry/core/pod/rest/log.go LogREST, LogLocation in
// pkg/registry/core/pod/strategy.go, the streamer of k8s.io/apiserver/pkg/registry/generic/rest):
// the PodLogOptions of the query validated, the container chosen, the pod's node resolved to its
// agent, and the agent's containerLogs answer streamed through as text/plain.
import type { IncomingMessage } from 'node:http';
import {
  StatusError,
  fieldForbidden,
  fieldInvalid,
  newBadRequest,
  newInternalError,
  newInvalid,
} from '@orch/apimachinery/errors';
import type { FieldError, StatusReason } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { HttpRequest, HttpResponse } from '../../../http/handler.js';
import type { ConnectHandler, Connecter, ObjectKind, RestContext } from '../../rest.js';
import type { Store } from '../../store.js';
import { agentUrl, connectionInfo, relayAgentAnswer } from '../nodes/kubelet-client.js';
import type { KubeletClient } from '../nodes/kubelet-client.js';

/** core.PodLogOptions as the query carries it. */
export interface PodLogOptions {
  container: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  sinceSeconds?: number;
  sinceTime?: string;
  tailLines?: number;
  limitBytes?: number;
}

/** Go's strconv.ParseBool. */
function parseBool(name: string, v: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw newBadRequest(`strconv.ParseBool: parsing "${v}": invalid syntax`);
}

function parseInt64(v: string): number {
  if (!/^[+-]?\d+$/.test(v))
    throw newBadRequest(`strconv.ParseInt: parsing "${v}": invalid syntax`);
  return Number(v);
}

/** The query's PodLogOptions (the parameter codec: the first value of each name). */
export function podLogOptionsFrom(q: URLSearchParams): PodLogOptions {
  const bool = (name: string): boolean => {
    const v = q.get(name);
    return v !== null && parseBool(name, v);
  };
  const int = (name: string): number | undefined => {
    const v = q.get(name);
    return v === null ? undefined : parseInt64(v);
  };
  const sinceSeconds = int('sinceSeconds');
  const tailLines = int('tailLines');
  const limitBytes = int('limitBytes');
  const sinceTime = q.get('sinceTime');
  if (sinceTime !== null && Number.isNaN(Date.parse(sinceTime))) {
    throw newBadRequest(
      `parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse "${sinceTime}" as "2006"`
    );
  }
  return {
    container: q.get('container') ?? '',
    follow: bool('follow'),
    previous: bool('previous'),
    timestamps: bool('timestamps'),
    ...(sinceSeconds === undefined ? {} : { sinceSeconds }),
    ...(sinceTime === null ? {} : { sinceTime }),
    ...(tailLines === undefined ? {} : { tailLines }),
    ...(limitBytes === undefined ? {} : { limitBytes }),
  };
}

/** k8s validation.ValidatePodLogOptions. */
export function validatePodLogOptions(o: PodLogOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (o.tailLines !== undefined && o.tailLines < 0) {
    errs.push(fieldInvalid('tailLines', o.tailLines, 'must be greater than or equal to 0'));
  }
  if (o.limitBytes !== undefined && o.limitBytes < 1) {
    errs.push(fieldInvalid('limitBytes', o.limitBytes, 'must be greater than 0'));
  }
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined) {
    errs.push(fieldForbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (o.sinceSeconds !== undefined && o.sinceSeconds < 1) {
    errs.push(fieldInvalid('sinceSeconds', o.sinceSeconds, 'must be greater than 0'));
  }
  return errs;
}

type Json = Record<string, unknown>;
const names = (spec: Json, field: string): string[] => {
  const list = spec[field];
  return Array.isArray(list) ? list.map((c) => String((c as Json)['name'] ?? '')) : [];
};

/** k8s pod.ValidateContainer: the named container, or the only one. */
export function podContainer(pod: ApiObject, container: string): string {
  const spec = (pod['spec'] ?? {}) as Json;
  const name = pod.metadata?.name ?? '';
  const containers = names(spec, 'containers');
  // VisitContainers' order: init containers, containers, ephemeral containers.
  const all = [
    ...names(spec, 'initContainers'),
    ...containers,
    ...names(spec, 'ephemeralContainers'),
  ];
  if (container === '') {
    if (containers.length === 1) return containers[0] ?? '';
    if (containers.length === 0) {
      throw newBadRequest(`a container name must be specified for pod ${name}`);
    }
    throw newBadRequest(
      `a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`
    );
  }
  if (!all.includes(container)) {
    throw newBadRequest(`container ${container} is not valid for pod ${name}`);
  }
  return container;
}

/** The agent's containerLogs URL for the options (k8s LogLocation). */
export function logLocation(
  host: string,
  port: number,
  ns: string,
  pod: string,
  container: string,
  o: PodLogOptions
): URL {
  const url = agentUrl('containerLogs', host, port, ns, pod, container);
  const p = url.searchParams;
  if (o.follow) p.set('follow', 'true');
  if (o.previous) p.set('previous', 'true');
  if (o.timestamps) p.set('timestamps', 'true');
  if (o.sinceSeconds !== undefined) p.set('sinceSeconds', String(o.sinceSeconds));
  if (o.sinceTime !== undefined)
    p.set('sinceTime', new Date(o.sinceTime).toISOString().replace(/\.000Z$/, 'Z'));
  if (o.tailLines !== undefined) p.set('tailLines', String(o.tailLines));
  if (o.limitBytes !== undefined) p.set('limitBytes', String(o.limitBytes));
  return url;
}

const reasonByCode: Partial<Record<number, [StatusReason, string]>> = {
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  403: ['Forbidden', ''],
  404: ['NotFound', 'the server could not find the requested resource'],
  409: ['Conflict', 'the server reported a conflict'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: [
    'Timeout',
    'the server was unable to return a response in the time allotted, but may still be processing the request',
  ],
};

/** k8s GenericHttpResponseChecker: an agent's error answer as a Status. */
async function checkResponse(res: IncomingMessage, name: string): Promise<void> {
  const code = res.statusCode ?? 500;
  if (code >= 200 && code <= 206) return;
  let body = '';
  res.setEncoding('utf8');
  for await (const chunk of res) {
    body += chunk as string;
    if (body.length > 10 * 1024) break;
  }
  res.destroy();
  if (code === 500) throw newInternalError(new Error(body));
  if (code === 400) throw newBadRequest(body);
  const [reason, message] = reasonByCode[code] ?? [
    '',
    `the server responded with the status code ${code} but did not return more information`,
  ];
  const text = message || body;
  throw new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${text} ( pods/log ${name})`,
    ...(reason ? { reason } : {}),
    details: { name, kind: 'pods/log' },
    code,
  });
}

/**
 * Streams an opened agent answer to the client (upstream's io.Copy of the LocationStreamer): a
 * cut from the agent ends the answer where it stopped, as Go's handler returning ends its
 * response; a client that leaves closes the agent's connection.
 */
class LogStream implements ConnectHandler {
  constructor(readonly source: IncomingMessage | undefined) {}

  serve(_req: HttpRequest, res: HttpResponse): Promise<void> {
    res.setHeader('Content-Type', 'text/plain');
    res.statusCode = 200;
    const source = this.source;
    if (!source) {
      res.end();
      return Promise.resolve();
    }
    res.flushHeaders();
    return relayAgentAnswer(source, res);
  }
}

const podKind: ObjectKind = { group: '', version: 'v1', kind: 'Pod', namespaced: true };

/** k8s LogREST. */
export class PodLogRest implements Connecter {
  readonly objectKind = podKind;
  readonly connectMethods = ['GET'] as const;

  constructor(
    private readonly pods: Store,
    private readonly nodes: Store,
    private readonly kubelet: KubeletClient
  ) {}

  async connect(ctx: RestContext, name: string, query: URLSearchParams): Promise<ConnectHandler> {
    const opts = podLogOptionsFrom(query);
    const errs = validatePodLogOptions(opts);
    if (errs.length > 0) throw newInvalid({ group: '', kind: 'PodLogOptions' }, name, errs);
    const pod = await this.pods.get(ctx, name, { consistency: 'MOST_RECENT' });
    const container = podContainer(pod, opts.container);
    const nodeName = String(((pod['spec'] ?? {}) as Json)['nodeName'] ?? '');
    // A pod not yet on a node has no log: an empty answer, as upstream's nil location.
    if (nodeName === '') return new LogStream(undefined);
    const node = await this.nodes.get({}, nodeName, { consistency: 'MOST_RECENT' });
    const { hostname, port } = connectionInfo(node, this.kubelet.preferredAddressTypes);
    const url = logLocation(hostname, port, ctx.namespace ?? '', name, container, opts);
    const res = await this.kubelet.get(url);
    await checkResponse(res, name);
    return new LogStream(res);
  }
}
