// The port-forward endpoint of the test node agent (upstream's kubelet /portForward/{namespace}/
// {pod}, pkg/kubelet/cri/streaming/portforward/httpstream.go): an upgrade to SPDY/3.1 with the
// portforward.k8s.io protocol; the client opens an error stream and a data stream per connection,
// both naming the port and a request ID; once both are there the agent dials the port on
// loopback (the test's "pod" listens there) and copies both ways. A failed dial is written to the
// error stream in the kubelet's words; both streams are closed when the connection ends.
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { SpdySession } from './spdy.js';
import type { SpdyStream } from './spdy.js';

const protocol = 'portforward.k8s.io';

/** What the agent counts of its port-forward connections. */
export interface PortForwardCounters {
  /** Forwarded connections open now. */
  open: number;
  /** Forwarded connections that ended. */
  completed: number;
}

/** Serves the upgrade requests of `/portForward/{namespace}/{pod}`. */
export function portForwardUpgradeHandler(counters: PortForwardCounters) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'https://node-agent');
    const parts = url.pathname.split('/').filter(Boolean);
    const refuse = (code: number, text: string, body = text): void => {
      socket.end(
        `HTTP/1.1 ${code} ${text}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${body}\n`
      );
    };
    if (parts[0] !== 'portForward' || parts.length !== 3) return refuse(404, 'Not Found');
    if (String(req.headers.upgrade).toLowerCase() !== 'spdy/3.1')
      return refuse(400, 'Bad Request', 'unable to upgrade: missing upgrade headers in request');
    // httpstream.Handshake: the client's X-Stream-Protocol-Version list must name ours.
    const offered = String(req.headers['x-stream-protocol-version'] ?? '')
      .split(',')
      .map((p) => p.trim());
    if (!offered.includes(protocol))
      return refuse(
        403,
        'Forbidden',
        `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server supports [${protocol}]`
      );
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n' +
        `X-Stream-Protocol-Version: ${protocol}\r\n\r\n`
    );
    if (head.length > 0) socket.unshift(head);
    serveSession(new SpdySession(socket), `${parts[1]}/${parts[2]}`, counters);
  };
}

function serveSession(session: SpdySession, pod: string, counters: PortForwardCounters): void {
  const pairs = new Map<string, { error?: SpdyStream; data?: SpdyStream }>();
  session.on('stream', (stream) => {
    const id = stream.headers['requestid'] ?? '';
    const pair = pairs.get(id) ?? {};
    pairs.set(id, pair);
    if (stream.headers['streamtype'] === 'error') pair.error = stream;
    else if (stream.headers['streamtype'] === 'data') pair.data = stream;
    else return void stream.destroy();
    if (pair.error && pair.data) {
      pairs.delete(id);
      forward(pair.error, pair.data, pod, counters);
    }
  });
}

/** Copies between the data stream and the port; ends both streams when the connection ends. */
function forward(error: SpdyStream, data: SpdyStream, pod: string, counters: PortForwardCounters) {
  const port = Number(data.headers['port']);
  error.resume(); // the client writes nothing on it but its half-close
  counters.open++;
  const conn = connect(port, '127.0.0.1');
  let done = false;
  const finish = (message?: string): void => {
    if (done) return;
    done = true;
    counters.open--;
    counters.completed++;
    if (message) error.write(message);
    error.end();
    data.end();
  };
  conn.once('connect', () => {
    data.pipe(conn);
    conn.pipe(data, { end: false });
    conn.once('end', () => finish());
  });
  conn.once('error', (err) =>
    finish(`error forwarding port ${port} to pod ${pod}, uid : ${err.message}`)
  );
  conn.once('close', () => finish());
  data.once('close', () => conn.destroy());
}
