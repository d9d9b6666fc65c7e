// The exec endpoint of the test node agent (upstream's kubelet /exec/{namespace}/{pod}/{container}
// served over WebSocket, k8s.io/apimachinery/pkg/util/httpstream/wsstream and the kubelet's
// remotecommand server): a real local process runs the command (argv as the `command` query
// values, no shell in between); the channel protocols v5.channel.k8s.io and v4.channel.k8s.io
// carry it: every binary message starts with its channel, 0 stdin, 1 stdout, 2 stderr, 3 error
// (a metav1.Status JSON when the process ends), 4 resize (a TerminalSize JSON, recorded), and
// with v5 only 255 close (`[255, 0]`: the client closed its stdin). With `tty`, the command runs
// on a pseudo-terminal (util-linux `script`, which allocates one and relays to it), so its output
// is the terminal's, on stdout alone, as a container's TTY; the recorded sizes are not applied to
// that terminal. Over SPDY/3.1 (kubectl's fallback) the same channels are streams of one session
// (spdy.ts), named by their `streamtype` header (v4.channel.k8s.io).
import { spawn } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import { acceptSpdyUpgrade, refuseUpgrade } from './spdy.js';
import type { SpdySession } from './spdy.js';
import type { SpdyStream } from './spdy.js';

/** The protocols served, in order of preference (the agent picks the first one offered). */
export const execProtocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'] as const;

const stdinChannel = 0;
const stdoutChannel = 1;
const stderrChannel = 2;
const errorChannel = 3;
const resizeChannel = 4;
const closeChannel = 255;

/** What the agent counts of its exec sessions. */
export interface ExecCounters {
  /** Sessions whose WebSocket is open. */
  open: number;
  /** Sessions whose client left before the process ended (the process was killed). */
  abandoned: number;
  /** Sessions ended by the process's exit. */
  completed: number;
  /** The terminal sizes clients sent on the resize channel, in order. */
  resizes: { Width: number; Height: number }[];
}

/** A stream flag of the query (`input`, `output`, `error`, `tty`), `1` or `true` as the kubelet reads it. */
export const streamFlag = (q: URLSearchParams, name: string): boolean =>
  q.get(name) === '1' || q.get(name) === 'true';

/** argv as one POSIX shell word list. */
const shellWords = (argv: readonly string[]): string =>
  argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');

/** The Status the error channel carries when the process ends (upstream's remotecommand). */
export function exitStatus(
  argv: readonly string[],
  code: number | null,
  signal: string | null
): Record<string, unknown> {
  if (code === 0) return { metadata: {}, status: 'Success' };
  const exitCode = code ?? 128 + (signal === 'SIGKILL' ? 9 : 15);
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${argv.join(' ')}], exit code ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}

const frame = (channel: number, data: Buffer | string): Buffer =>
  Buffer.concat([Buffer.from([channel]), Buffer.isBuffer(data) ? data : Buffer.from(data)]);

/** What a session's transport does for the process: its output, its end, the client leaving. */
interface SessionIo {
  stdout(d: Buffer): void;
  stderr(d: Buffer): void;
  /** The process ended: the Status goes on the error channel, then the session closes. */
  finish(status: object): void;
}

/** What the transport tells the process. */
interface ProcessControl {
  stdin(d: Buffer): void;
  stdinEnd(): void;
  resize(size: ExecCounters['resizes'][0]): void;
  /** The client left before the process ended: it is killed. */
  abandon(): void;
}

/** Runs `argv` for one session until the process ends or the client leaves (abandon). */
function runProcess(
  argv: string[],
  q: URLSearchParams,
  counters: ExecCounters,
  io: SessionIo
): ProcessControl {
  const on = (name: string): boolean => streamFlag(q, name);
  const withStdin = on('input') || on('stdin');
  const [command, args] = on('tty')
    ? ['script', ['-qfec', shellWords(argv), '/dev/null']]
    : [argv[0] ?? '', argv.slice(1)];
  const child = spawn(command, args, { stdio: [withStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  counters.open++;
  let ended = false;
  child.stdout?.on('data', (d: Buffer) => on('output') && io.stdout(d));
  child.stderr?.on('data', (d: Buffer) => on('error') && io.stderr(d));
  child.stdin?.on('error', () => undefined);
  const finish = (status: object): void => {
    if (ended) return;
    ended = true;
    counters.open--;
    counters.completed++;
    io.finish(status);
  };
  child.on('error', (err) => {
    finish({
      metadata: {},
      status: 'Failure',
      message: `failed to exec in container: ${err.message}`,
      reason: 'InternalError',
    });
  });
  // 'close': the process has exited and its stdout and stderr are drained.
  child.on('close', (code, signal) => finish(exitStatus(argv, code, signal)));
  return {
    stdin: (d) => void child.stdin?.write(d),
    stdinEnd: () => void child.stdin?.end(),
    resize: (size) => void counters.resizes.push(size),
    abandon: () => {
      if (ended) return;
      ended = true;
      counters.open--;
      counters.abandoned++;
      child.kill('SIGKILL');
    },
  };
}

/** A session over WebSocket: every message is its channel's byte, then the data. */
function runWebSocketSession(
  ws: WebSocket,
  argv: string[],
  q: URLSearchParams,
  counters: ExecCounters
): void {
  const run = runProcess(argv, q, counters, {
    stdout: (d) => ws.send(frame(stdoutChannel, d)),
    stderr: (d) => ws.send(frame(stderrChannel, d)),
    finish: (status) => ws.send(frame(errorChannel, JSON.stringify(status)), () => ws.close(1000)),
  });
  ws.on('message', (data: RawData) => {
    const msg = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
    if (msg[0] === stdinChannel) run.stdin(msg.subarray(1));
    else if (msg[0] === resizeChannel) run.resize(JSON.parse(msg.subarray(1).toString()));
    else if (msg[0] === closeChannel && msg[1] === stdinChannel) run.stdinEnd();
  });
  ws.on('close', () => run.abandon());
}

/**
 * A session over SPDY (kubectl's fallback, `v4.channel.k8s.io` as the kubelet's remotecommand
 * server speaks it): a stream per channel, named by its `streamtype` header; the process starts
 * once the streams the query asks for are open (error always; stdin, stdout, stderr without a
 * tty, resize with one). The stdin stream's half-close closes the process's stdin; the Status is
 * written on the error stream, then the connection ends.
 */
function runSpdySession(
  session: SpdySession,
  argv: string[],
  q: URLSearchParams,
  counters: ExecCounters
): void {
  whenStreamsOpen(session, q, (streams) => {
    const run = runProcess(argv, q, counters, {
      stdout: (d) => void streams.get('stdout')?.write(d),
      stderr: (d) => void streams.get('stderr')?.write(d),
      finish: (status) => {
        streams.get('error')?.end(JSON.stringify(status));
        for (const [type, s] of streams) if (type !== 'error') s.end();
        session.close();
      },
    });
    const stdin = streams.get('stdin');
    stdin?.on('data', (d: Buffer) => run.stdin(d));
    stdin?.once('end', () => run.stdinEnd());
    let sizes = '';
    streams.get('resize')?.on('data', (d: Buffer) => {
      // One TerminalSize JSON object after another (a json.Encoder's stream).
      sizes += d.toString();
      for (let nl = sizes.indexOf('\n'); nl >= 0; nl = sizes.indexOf('\n')) {
        const line = sizes.slice(0, nl).trim();
        sizes = sizes.slice(nl + 1);
        if (line) run.resize(JSON.parse(line));
      }
    });
    session.once('close', () => run.abandon());
  });
}

/**
 * Calls `ready` once the client opened the streams the query asks for (error always; stdin,
 * stdout, stderr without a tty, resize with one), by their `streamtype` header.
 */
export function whenStreamsOpen(
  session: SpdySession,
  q: URLSearchParams,
  ready: (streams: Map<string, SpdyStream>) => void
): void {
  const on = (name: string): boolean => streamFlag(q, name);
  const expected = ['error'];
  if (on('input')) expected.push('stdin');
  if (on('output')) expected.push('stdout');
  if (on('error') && !on('tty')) expected.push('stderr');
  if (on('tty')) expected.push('resize');
  const streams = new Map<string, SpdyStream>();
  let started = false;
  session.on('stream', (stream) => {
    streams.set(stream.headers['streamtype'] ?? '', stream);
    if (!started && expected.every((t) => streams.has(t))) {
      started = true;
      ready(streams);
    }
  });
}

/** Whether an upgrade request asks for SPDY/3.1 (kubectl's fallback) rather than WebSocket. */
export const isSpdy = (req: IncomingMessage): boolean =>
  String(req.headers.upgrade).toLowerCase() === 'spdy/3.1';

/** The SPDY remotecommand protocols, in the kubelet's order of preference. */
export const spdyExecProtocols = [
  'v4.channel.k8s.io',
  'v3.channel.k8s.io',
  'v2.channel.k8s.io',
  'channel.k8s.io',
];

/**
 * Serves the upgrade requests of `/exec/{namespace}/{pod}/{container}`; answers anything else
 * 404 and a missing command 400, as plain HTTP before any upgrade.
 */
export function execUpgradeHandler(counters: ExecCounters) {
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => execProtocols.find((p) => offered.has(p)) ?? false,
  });
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'https://node-agent');
    const parts = url.pathname.split('/').filter(Boolean);
    const argv = url.searchParams.getAll('command');
    const refuse = (code: number, text: string): void => refuseUpgrade(socket, code, text);
    if (parts[0] !== 'exec' || parts.length !== 4) return refuse(404, 'Not Found');
    if (argv.length === 0) return refuse(400, 'Bad Request');
    if (isSpdy(req)) {
      const session = acceptSpdyUpgrade(req, socket, head, spdyExecProtocols);
      if (session) runSpdySession(session, argv, url.searchParams, counters);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) =>
      runWebSocketSession(ws, argv, url.searchParams, counters)
    );
  };
}
