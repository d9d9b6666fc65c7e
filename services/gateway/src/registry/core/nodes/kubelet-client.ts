// How the gateway reaches a node's agent (k8s pkg/kubelet/client/kubelet_client.go): the
// address of the Node by the preferred address types, the port its status names, and an HTTPS
// client with the gateway's client certificate, verifying the agent against the configured CA.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { createSecureContext } from 'node:tls';
import { StatusError, newServiceUnavailable } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { HttpResponse } from '../../../http/handler.js';

/** Upstream's default --kubelet-preferred-address-types order. */
export const defaultPreferredAddressTypes: readonly string[] = [
  'Hostname',
  'InternalDNS',
  'InternalIP',
  'ExternalDNS',
  'ExternalIP',
];

/** The agent's port when the Node's status names none (ports.KubeletPort). */
export const defaultKubeletPort = 10250;

/** The --kubelet-* flags, completed (k8s KubeletClientConfig). */
export interface KubeletClientOptions {
  certFile: string;
  keyFile: string;
  /** '' : the system's roots verify the agent. */
  caFile: string;
  preferredAddressTypes: readonly string[];
  timeoutMs: number;
}

/** Where a Node's agent listens (k8s ConnectionInfo). */
export interface ConnectionInfo {
  scheme: 'https';
  hostname: string;
  port: number;
}

type Json = Record<string, unknown>;
const objectAt = (o: unknown, k: string): Json => {
  const v = typeof o === 'object' && o !== null ? (o as Json)[k] : undefined;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
};

/** An error as upstream's ErrorToAPIStatus makes of a plain Go error: 500, no reason. */
export function unknownServerError(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    code: 500,
  });
}

/** k8s nodeutil.GetPreferredNodeAddress: the first address of the first type that has one. */
export function preferredNodeAddress(node: ApiObject, types: readonly string[]): string {
  const addresses = objectAt(node, 'status')['addresses'];
  const list = Array.isArray(addresses) ? (addresses as { type?: string; address?: string }[]) : [];
  for (const type of types) {
    const found = list.find((a) => a.type === type && a.address);
    if (found?.address) return found.address;
  }
  const known = list.map((a) => `{${a.type ?? ''} ${a.address ?? ''}}`).join(' ');
  throw unknownServerError(`no preferred addresses found; known addresses: [${known}]`);
}

/** k8s NodeConnectionInfoGetter.GetConnectionInfo. */
export function connectionInfo(node: ApiObject, types: readonly string[]): ConnectionInfo {
  const endpoint = objectAt(
    objectAt(objectAt(node, 'status'), 'daemonEndpoints'),
    'kubeletEndpoint'
  );
  const port = typeof endpoint['Port'] === 'number' && endpoint['Port'] > 0 ? endpoint['Port'] : 0;
  return {
    scheme: 'https',
    hostname: preferredNodeAddress(node, types),
    port: port || defaultKubeletPort,
  };
}

/** A host for a URL: an IPv6 literal in brackets. */
export const urlHost = (host: string, port: number): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * A container endpoint of a node agent: `https://<host>:<port>/<endpoint>/<ns>/<pod>/<container>`,
 * each part path-escaped (the kubelet's containerLogs, exec, attach).
 */
export function agentUrl(
  endpoint: string,
  host: string,
  port: number,
  ...parts: [namespace: string, pod: string, container: string]
): URL {
  const path = parts.map(encodeURIComponent).join('/');
  return new URL(`https://${urlHost(host, port)}/${endpoint}/${path}`);
}

/**
 * Streams an agent's answer body to the client, whose headers are already sent: the client's
 * answer ends where the agent's does (or is cut), and a client that leaves closes the agent's
 * stream. Resolves when the client's side is closed.
 */
export function relayAgentAnswer(source: IncomingMessage, res: HttpResponse): Promise<void> {
  return new Promise((resolve) => {
    const finish = (): void => {
      if (!res.writableEnded) res.end();
    };
    source.on('end', finish);
    source.on('error', finish);
    source.on('aborted', finish);
    res.on('close', () => {
      if (!source.complete) source.destroy();
      resolve();
    });
    source.pipe(res, { end: false });
  });
}

/** An agent's answer to an upgrade request: with `socket` when it switched protocols. */
export interface AgentUpgrade {
  response: IncomingMessage;
  socket?: Duplex;
  head?: Buffer;
}

export class KubeletClient {
  readonly preferredAddressTypes: readonly string[];
  readonly timeoutMs: number;
  readonly #agent: Agent;

  constructor(opts: KubeletClientOptions) {
    this.preferredAddressTypes = opts.preferredAddressTypes;
    this.timeoutMs = opts.timeoutMs;
    // One TLS context for every connection: given cert, key and ca, each new connection (every
    // exec, attach and port-forward is one) would parse them into a context of its own.
    const secureContext = createSecureContext({
      ...(opts.certFile ? { cert: readFileSync(opts.certFile) } : {}),
      ...(opts.keyFile ? { key: readFileSync(opts.keyFile) } : {}),
      ...(opts.caFile ? { ca: readFileSync(opts.caFile) } : {}),
    });
    this.#agent = new Agent({ keepAlive: true, secureContext });
  }

  /**
   * GET `url` on an agent; resolves with the response once its headers arrived. A failure to
   * connect, or no headers within the timeout, is the error Go's client gives
   * (`Get "<url>": <cause>`), which upstream answers as a 500 without reason.
   */
  get(url: URL): Promise<IncomingMessage> {
    return this.send('GET', url, {}, undefined, (cause) =>
      unknownServerError(`Get "${url.href}": ${cause}`)
    );
  }

  /**
   * Any request to an agent (the proxy): the failure as upstream's proxy transport answers it,
   * 503 `error trying to reach service: <cause>` (apimachinery util/proxy Transport).
   */
  proxy(
    method: string,
    url: URL,
    headers: OutgoingHttpHeaders,
    body: Buffer | undefined
  ): Promise<IncomingMessage> {
    return this.send(method, url, headers, body, (c) =>
      newServiceUnavailable(`error trying to reach service: ${c}`)
    );
  }

  /**
   * An upgrade request to an agent (upstream's UpgradeAwareHandler dialing the backend): resolves
   * with the agent's 101 answer and its socket, or with its answer when it refused the upgrade.
   * A failure to connect is `error dialing backend: <cause>`.
   */
  upgrade(url: URL, headers: OutgoingHttpHeaders, method = 'GET'): Promise<AgentUpgrade> {
    return new Promise((resolve, reject) => {
      const fail = (cause: string): void => {
        req.destroy();
        reject(unknownServerError(`error dialing backend: ${cause}`));
      };
      const req = request(url, { method, headers, agent: this.#agent }, (response) => {
        clearTimeout(timer);
        resolve({ response });
      });
      req.on('upgrade', (response: IncomingMessage, socket: Duplex, head: Buffer) => {
        clearTimeout(timer);
        resolve({ response, socket, head });
      });
      const timer = setTimeout(() => fail('i/o timeout'), this.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        fail(dialCause(err, url));
      });
      req.end();
    });
  }

  private send(
    method: string,
    url: URL,
    headers: OutgoingHttpHeaders,
    body: Buffer | undefined,
    failure: (cause: string) => StatusError
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const fail = (cause: string): void => {
        req.destroy();
        reject(failure(cause));
      };
      const req = request(url, { method, headers, agent: this.#agent }, (res) => {
        clearTimeout(timer);
        resolve(res);
      });
      const timer = setTimeout(
        () => fail('net/http: timeout awaiting response headers'),
        this.timeoutMs
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        fail(dialCause(err, url));
      });
      req.end(body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** Go's dial error text for the common causes. */
export function dialCause(err: NodeJS.ErrnoException, url: URL): string {
  const target = url.host;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${target}: connect: connection refused`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'ETIMEDOUT':
      return `dial tcp ${target}: i/o timeout`;
    default:
      return err.message;
  }
}
