// The exec endpoint of the test node agent (upstream's kubelet /exec/{namespace}/{pod}/{container}
// served over WebSocket, k8s.io/apimachinery/pkg/util/httpstream/wsstream and the kubelet's
// remotecommand server): a real local process runs the command (argv as the `command` query
// values, no shell in between); the channel protocols v5.channel.k8s.io and v4.channel.k8s.io
// carry it: every binary message starts with its channel, 0 stdin, 1 stdout, 2 stderr, 3 error
// (a metav1.Status JSON when the process ends), 4 resize (a TerminalSize JSON, recorded), and
// with v5 only 255 close (`[255, 0]`: the client closed its stdin). With `tty`, the command runs
// on a pseudo-terminal (util-linux `script`, which allocates one and relays to it), so its output
// is the terminal's, on stdout alone, as a container's TTY; the recorded sizes are not applied to
// that terminal.
import { spawn } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';

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

/** Runs `argv` for one session on `ws` until the process ends or the client leaves. */
function runSession(ws: WebSocket, argv: string[], q: URLSearchParams, counters: ExecCounters) {
  const on = (name: string): boolean => q.get(name) === '1' || q.get(name) === 'true';
  const withStdin = on('input') || on('stdin');
  const [command, args] = on('tty')
    ? ['script', ['-qfec', shellWords(argv), '/dev/null']]
    : [argv[0] ?? '', argv.slice(1)];
  const child = spawn(command, args, { stdio: [withStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  counters.open++;
  let ended = false;
  child.stdout?.on('data', (d: Buffer) => on('output') && ws.send(frame(stdoutChannel, d)));
  child.stderr?.on('data', (d: Buffer) => on('error') && ws.send(frame(stderrChannel, d)));
  child.stdin?.on('error', () => undefined);
  const finish = (status: object): void => {
    if (ended) return;
    ended = true;
    counters.open--;
    counters.completed++;
    ws.send(frame(errorChannel, JSON.stringify(status)), () => ws.close(1000));
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
  ws.on('message', (data: RawData) => {
    const msg = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
    if (msg[0] === stdinChannel) child.stdin?.write(msg.subarray(1));
    else if (msg[0] === resizeChannel)
      counters.resizes.push(JSON.parse(msg.subarray(1).toString()) as ExecCounters['resizes'][0]);
    else if (msg[0] === closeChannel && msg[1] === stdinChannel) child.stdin?.end();
  });
  ws.on('close', () => {
    if (ended) return;
    ended = true;
    counters.open--;
    counters.abandoned++;
    child.kill('SIGKILL');
  });
}

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
    const refuse = (code: number, text: string): void => {
      socket.end(
        `HTTP/1.1 ${code} ${text}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${text}\n`
      );
    };
    if (parts[0] !== 'exec' || parts.length !== 4) return refuse(404, 'Not Found');
    if (argv.length === 0) return refuse(400, 'Bad Request');
    wss.handleUpgrade(req, socket, head, (ws) => runSession(ws, argv, url.searchParams, counters));
  };
}
