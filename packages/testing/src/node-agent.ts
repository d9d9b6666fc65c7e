// A test node agent: a real HTTPS server on loopback answering the node agent's own endpoints as
// upstream's kubelet serves them (pkg/kubelet/server/server.go), for a Node registered with its
// address. It verifies the client certificate of every request against the CA it is given (the
// gateway's --kubelet-client-certificate), and serves with a certificate from a CA the test
// chooses (the gateway's --kubelet-certificate-authority).
//
// Served: GET /containerLogs/{namespace}/{pod}/{container} with the query options as the kubelet
// reads them (follow, previous, sinceSeconds, sinceTime, timestamps, tailLines, limitBytes). The
// logs are lines the test appends; a follow stays open for lines appended later and ends when the
// test ends the container's log (or stops the agent). GET /healthz answers ok; /echo/... answers
// the request it received as JSON (the target of nodes/proxy). Upgrade requests of
// /exec/{namespace}/{pod}/{container} run a real local process over WebSocket or SPDY/3.1
// (node-agent-exec.ts);
// /attach/{namespace}/{pod}/{container} attach to a process the test started (node-agent-attach.ts);
// /portForward/{namespace}/{pod} forwards over SPDY/3.1 to ports on loopback (node-agent-portforward.ts).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';
import type { Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  createCertificateAuthority,
  issueCertificate,
  loadCertificateAuthority,
} from '@orch/component-base/pki';
import { AttachContainers } from './node-agent-attach.js';
import { execUpgradeHandler } from './node-agent-exec.js';
import type { ExecCounters } from './node-agent-exec.js';
import { portForwardUpgradeHandler } from './node-agent-portforward.js';
import type { PortForwardCounters } from './node-agent-portforward.js';

export type { ExecCounters } from './node-agent-exec.js';
export type { PortForwardCounters } from './node-agent-portforward.js';

/** One line of a container's log, with the time the runtime stamped it. */
export interface LogLine {
  time: Date;
  text: string;
}

/** One request the agent received. */
export interface NodeAgentCall {
  method: string;
  path: string;
  /** The CN of the verified client certificate. */
  clientName: string;
}

export interface NodeAgent {
  port: number;
  /** `127.0.0.1`. */
  address: string;
  /** PEM of the CA the serving certificate chains to. */
  caPem: string;
  calls: NodeAgentCall[];
  /** Appends lines to a container's log (`previous` for the last terminated instance). */
  appendLog(ref: ContainerRef, lines: readonly (string | LogLine)[], previous?: boolean): void;
  /** Ends the container's log: open follows end. */
  endLog(ref: ContainerRef): void;
  /** Cuts the connections of the container's open follows mid-stream (no clean end). */
  cutLog(ref: ContainerRef): void;
  /** Requests whose connection is still open. */
  openStreams(): number;
  /** The exec sessions: open, abandoned by their client, completed; the resizes received. */
  exec: ExecCounters;
  /**
   * Starts a container's process for /attach (the test's stand-in for a running container):
   * attach sessions see its output from then on and write its stdin (closed by the client's
   * half-close, as `stdinOnce`).
   */
  startContainer(ref: ContainerRef, argv: readonly string[]): void;
  /** Attach sessions open now. */
  attached(): number;
  /**
   * Port-forward connections, open and completed. A pod's port is the same port on loopback:
   * the test listens there as the pod would.
   */
  portForwards: PortForwardCounters;
  /** TLS connections open to the agent (every kind of request). */
  openConnections(): number;
  stop(): Promise<void>;
}

export interface ContainerRef {
  namespace: string;
  pod: string;
  container: string;
}

export interface NodeAgentOptions {
  /** PEM of the CA client certificates must chain to (required: every request is verified). */
  clientCaPem: string;
  /** The CA of the serving certificate (default: a CA of its own, see `caPem`). */
  servingCa?: { certPem: string; keyPem: string };
}

interface ContainerLog {
  current: LogLine[];
  previous: LogLine[];
  ended: boolean;
  followers: Set<(line: LogLine | undefined) => void>;
  /** The responses of the open follows. */
  following: Set<ServerResponse>;
}

const keyOf = (r: ContainerRef): string => `${r.namespace}/${r.pod}/${r.container}`;

/** The kubelet's log line prefix with timestamps: RFC 3339 with nanoseconds, then a space. */
function stamp(line: LogLine, timestamps: boolean): string {
  if (!timestamps) return `${line.text}\n`;
  const iso = line.time.toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
  return `${iso} ${line.text}\n`;
}

/** The query options as the kubelet decodes them into PodLogOptions. */
interface LogQuery {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  since?: Date;
  tailLines?: number;
  limitBytes?: number;
}

function parseLogQuery(q: URLSearchParams, now: Date): LogQuery | string {
  const bool = (name: string): boolean => q.get(name) === 'true' || q.get(name) === '1';
  const int = (name: string): number | undefined | string => {
    const v = q.get(name);
    if (v === null) return undefined;
    return /^-?\d+$/.test(v) ? Number(v) : `${name}: invalid value ${v}`;
  };
  const sinceSeconds = int('sinceSeconds');
  const tailLines = int('tailLines');
  const limitBytes = int('limitBytes');
  for (const v of [sinceSeconds, tailLines, limitBytes]) if (typeof v === 'string') return v;
  const sinceTime = q.get('sinceTime');
  let since: Date | undefined;
  if (sinceTime !== null) {
    since = new Date(sinceTime);
    if (Number.isNaN(since.getTime())) return `sinceTime: invalid value ${sinceTime}`;
  } else if (typeof sinceSeconds === 'number') {
    since = new Date(now.getTime() - sinceSeconds * 1000);
  }
  return {
    follow: bool('follow'),
    previous: bool('previous'),
    timestamps: bool('timestamps'),
    ...(since ? { since } : {}),
    ...(typeof tailLines === 'number' ? { tailLines } : {}),
    ...(typeof limitBytes === 'number' ? { limitBytes } : {}),
  };
}

/** The proxy's target: the request as the agent received it, as JSON. */
function echo(req: IncomingMessage, url: URL, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Node-Agent': 'echo' });
    res.end(
      JSON.stringify({
        method: req.method,
        path: url.pathname,
        query: url.search,
        body: Buffer.concat(chunks).toString('utf8'),
        authorization: req.headers.authorization ?? '',
      })
    );
  });
}

/**
 * An agent as a node of the cluster whose PKI is in `pkiDir` runs it: client certificates must
 * chain to the cluster CA (the gateways present theirs, --kubelet-client-certificate) and it
 * serves with a certificate of that CA (their --kubelet-certificate-authority).
 */
export async function startClusterNodeAgent(pkiDir: string): Promise<NodeAgent> {
  const caPem = readFileSync(join(pkiDir, 'ca.crt'), 'utf8');
  return startNodeAgent({
    clientCaPem: caPem,
    servingCa: { certPem: caPem, keyPem: readFileSync(join(pkiDir, 'ca.key'), 'utf8') },
  });
}

export async function startNodeAgent(opts: NodeAgentOptions): Promise<NodeAgent> {
  const ca = opts.servingCa
    ? await loadCertificateAuthority(opts.servingCa.certPem, opts.servingCa.keyPem)
    : await createCertificateAuthority({ commonName: 'node-agent-test-ca' });
  const serving = await issueCertificate(ca, {
    commonName: 'node-agent',
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    usages: ['server'],
  });
  const logs = new Map<string, ContainerLog>();
  const logOf = (ref: ContainerRef): ContainerLog => {
    const key = keyOf(ref);
    let log = logs.get(key);
    if (!log) {
      log = {
        current: [],
        previous: [],
        ended: false,
        followers: new Set(),
        following: new Set(),
      };
      logs.set(key, log);
    }
    return log;
  };
  const calls: NodeAgentCall[] = [];
  const open = new Set<ServerResponse>();

  const serveLogs = (ref: ContainerRef, q: URLSearchParams, res: ServerResponse): void => {
    const log = logs.get(keyOf(ref));
    const query = parseLogQuery(q, new Date());
    if (typeof query === 'string') {
      res.writeHead(400, { 'Content-Type': 'text/plain' });
      res.end(query);
      return;
    }
    if (!log || (query.previous && log.previous.length === 0)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end(
        query.previous
          ? `previous terminated container "${ref.container}" in pod "${ref.pod}" not found`
          : `container "${ref.container}" in pod "${ref.pod}" is not available`
      );
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    let budget = query.limitBytes ?? Infinity;
    // Writes one line within limitBytes; false once the limit is reached (the stream ends).
    const write = (line: LogLine): boolean => {
      if (query.since && line.time < query.since) return true;
      const text = Buffer.from(stamp(line, query.timestamps));
      if (text.length >= budget) {
        res.write(text.subarray(0, budget));
        budget = 0;
        return false;
      }
      budget -= text.length;
      res.write(text);
      return true;
    };
    const lines = query.previous ? log.previous : log.current;
    const selected =
      query.tailLines === undefined
        ? lines
        : lines.slice(Math.max(0, lines.length - query.tailLines));
    for (const line of selected) {
      if (!write(line)) return void res.end();
    }
    if (!query.follow || query.previous || log.ended) return void res.end();
    const follower = (line: LogLine | undefined): void => {
      if (line && write(line)) return;
      log.followers.delete(follower);
      res.end();
    };
    log.followers.add(follower);
    log.following.add(res);
    res.on('close', () => {
      log.followers.delete(follower);
      log.following.delete(res);
    });
  };

  const server: Server = createServer(
    {
      cert: serving.certPem,
      key: serving.keyPem,
      ca: opts.clientCaPem,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'https://node-agent');
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      calls.push({
        method: req.method ?? '',
        path: url.pathname,
        clientName: String(peer.subject.CN),
      });
      open.add(res);
      res.on('close', () => open.delete(res));
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (req.method === 'GET' && parts[0] === 'containerLogs' && parts.length === 4) {
        const [, namespace = '', pod = '', container = ''] = parts;
        serveLogs({ namespace, pod, container }, url.searchParams, res);
        return;
      }
      if (parts[0] === 'healthz') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('ok');
        return;
      }
      if (parts[0] === 'echo') return void echo(req, url, res);
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found\n');
    }
  );
  const exec: ExecCounters = { open: 0, abandoned: 0, completed: 0, resizes: [] };
  const serveExec = execUpgradeHandler(exec);
  const containers = new AttachContainers();
  const serveAttach = containers.handler();
  const portForwards: PortForwardCounters = { open: 0, completed: 0 };
  const servePortForward = portForwardUpgradeHandler(portForwards);
  server.on('upgrade', (req: IncomingMessage, socket: TLSSocket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'https://node-agent');
    calls.push({
      method: req.method ?? '',
      path: url.pathname,
      clientName: String(socket.getPeerCertificate().subject.CN),
    });
    if (url.pathname.startsWith('/attach/')) serveAttach(req, socket, head);
    else if (url.pathname.startsWith('/portForward/')) servePortForward(req, socket, head);
    else serveExec(req, socket, head);
  });
  const connections = new Set<TLSSocket>();
  server.on('secureConnection', (socket: TLSSocket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    address: '127.0.0.1',
    caPem: ca.certPem,
    calls,
    appendLog(ref, lines, previous = false) {
      const log = logOf(ref);
      for (const l of lines) {
        const line = typeof l === 'string' ? { time: new Date(), text: l } : l;
        (previous ? log.previous : log.current).push(line);
        if (!previous) for (const f of [...log.followers]) f(line);
      }
    },
    endLog(ref) {
      const log = logOf(ref);
      log.ended = true;
      for (const f of [...log.followers]) f(undefined);
    },
    cutLog(ref) {
      for (const res of logOf(ref).following) res.socket?.destroy();
    },
    openStreams: () => open.size,
    exec,
    startContainer: (ref, argv) => containers.start(keyOf(ref), argv),
    attached: () => containers.attached(),
    portForwards,
    openConnections: () => connections.size,
    async stop() {
      containers.stopAll();
      for (const res of open) res.destroy();
      server.closeAllConnections();
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
