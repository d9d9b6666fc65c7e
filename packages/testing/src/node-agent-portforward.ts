// The port-forward endpoint of the test node agent (upstream's kubelet /portForward/{namespace}/
// {pod}, pkg/kubelet/cri/streaming/portforward/httpstream.go): an upgrade to SPDY/3.1 with the
// portforward.k8s.io protocol; the client opens an error stream and a data stream per connection,
// both naming the port and a request ID; once both are there the agent dials the port on
// loopback (the test's "pod" listens there) and copies both ways. A failed dial is written to the
// error stream in the kubelet's words; both streams are closed when the connection ends.
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { acceptSpdyUpgrade, refuseUpgrade } from './spdy.js';
import type { SpdySession, SpdyStream } from './spdy.js';

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
    if (parts[0] !== 'portForward' || parts.length !== 3)
      return refuseUpgrade(socket, 404, 'Not Found');
    if (String(req.headers.upgrade).toLowerCase() !== 'spdy/3.1')
      return refuseUpgrade(
        socket,
        400,
        'Bad Request',
        'unable to upgrade: missing upgrade headers in request'
      );
    const session = acceptSpdyUpgrade(req, socket, head, [protocol]);
    if (session) serveSession(session, `${parts[1]}/${parts[2]}`, counters);
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
