// The attach endpoint of the test node agent (upstream's kubelet /attach/{namespace}/{pod}/
// {container} over WebSocket): a container is a real local process the test starts
// (`startContainer`); an attach session receives what the process writes from then on (stdout
// on channel 1, stderr on 2, when asked for), writes its stdin (channel 0) to the process, and
// ends with the process's exit Status on channel 3 when the process ends. A client that leaves
// detaches and the process runs on. The containers behave as with `stdinOnce`: the client's
// half-close (v5's `[255, 0]`) closes the process's stdin. Same channel protocols as exec, over
// WebSocket or SPDY/3.1 (kubectl's fallback).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import {
  execProtocols,
  exitStatus,
  isSpdy,
  spdyExecProtocols,
  streamFlag,
  whenStreamsOpen,
} from './node-agent-exec.js';
import { acceptSpdyUpgrade, refuseUpgrade } from './spdy.js';
import type { SpdySession, SpdyStream } from './spdy.js';

const frame = (channel: number, data: Buffer | string): Buffer =>
  Buffer.concat([Buffer.from([channel]), Buffer.isBuffer(data) ? data : Buffer.from(data)]);

/** A running container: its process and the sessions attached to it. */
interface Container {
  child: ChildProcess;
  sessions: Set<Attached>;
  exited: boolean;
}

/** A session attached to a container, ended with the process's exit Status. */
interface Attached {
  end(status: string): void;
}

/** The agent's containers, keyed `<namespace>/<pod>/<container>`. */
export class AttachContainers {
  readonly #containers = new Map<string, Container>();

  /** Starts `argv` as the container `key` (replacing nothing: a key starts once). */
  start(key: string, argv: readonly string[]): void {
    if (this.#containers.has(key)) throw new Error(`container ${key} already started`);
    const child = spawn(argv[0] ?? '', argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    const c: Container = { child, sessions: new Set(), exited: false };
    child.stdin?.on('error', () => undefined);
    // Output nobody is attached to is dropped, as a session sees it from its attach on.
    child.stdout?.resume();
    child.stderr?.resume();
    child.on('close', (code, signal) => {
      c.exited = true;
      const status = JSON.stringify(exitStatus(argv, code, signal));
      for (const session of c.sessions) session.end(status);
    });
    this.#containers.set(key, c);
  }

  /** Sessions attached now, over all containers. */
  attached(): number {
    let n = 0;
    for (const c of this.#containers.values()) n += c.sessions.size;
    return n;
  }

  stopAll(): void {
    for (const c of this.#containers.values()) if (!c.exited) c.child.kill('SIGKILL');
  }

  /** Serves the upgrade requests of `/attach/{namespace}/{pod}/{container}`. */
  handler() {
    const wss = new WebSocketServer({
      noServer: true,
      handleProtocols: (offered) => execProtocols.find((p) => offered.has(p)) ?? false,
    });
    return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
      const url = new URL(req.url ?? '/', 'https://node-agent');
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      const c = parts.length === 4 ? this.#containers.get(parts.slice(1).join('/')) : undefined;
      if (!c || c.exited) {
        refuseUpgrade(socket, 404, 'Not Found');
        return;
      }
      if (isSpdy(req)) {
        const session = acceptSpdyUpgrade(req, socket, head, spdyExecProtocols);
        if (session)
          whenStreamsOpen(session, url.searchParams, (streams) =>
            this.#spdySession(c, session, streams)
          );
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => this.#session(c, ws, url.searchParams));
    };
  }

  #session(c: Container, ws: WebSocket, q: URLSearchParams): void {
    const on = (name: string): boolean => streamFlag(q, name);
    const attached: Attached = { end: (status) => ws.send(frame(3, status), () => ws.close(1000)) };
    c.sessions.add(attached);
    const out = (d: Buffer): void => ws.send(frame(1, d));
    const err = (d: Buffer): void => ws.send(frame(2, d));
    if (on('output')) c.child.stdout?.on('data', out);
    if (on('error')) c.child.stderr?.on('data', err);
    ws.on('message', (data: RawData) => {
      if (!on('input')) return;
      const msg = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (msg[0] === 0) c.child.stdin?.write(msg.subarray(1));
      else if (msg[0] === 255 && msg[1] === 0) c.child.stdin?.end();
    });
    ws.on('close', () => {
      c.sessions.delete(attached);
      c.child.stdout?.off('data', out);
      c.child.stderr?.off('data', err);
    });
  }

  /** The same over SPDY: a stream per channel (the streams the query asked for, all open). */
  #spdySession(c: Container, session: SpdySession, streams: Map<string, SpdyStream>): void {
    const attached: Attached = {
      end: (status) => {
        streams.get('error')?.end(status);
        for (const [type, s] of streams) if (type !== 'error') s.end();
        session.close();
      },
    };
    c.sessions.add(attached);
    const out = (d: Buffer): void => void streams.get('stdout')?.write(d);
    const err = (d: Buffer): void => void streams.get('stderr')?.write(d);
    c.child.stdout?.on('data', out);
    c.child.stderr?.on('data', err);
    const stdin = streams.get('stdin');
    stdin?.on('data', (d: Buffer) => c.child.stdin?.write(d));
    stdin?.once('end', () => c.child.stdin?.end());
    session.once('close', () => {
      c.sessions.delete(attached);
      c.child.stdout?.off('data', out);
      c.child.stderr?.off('data', err);
    });
  }
}
