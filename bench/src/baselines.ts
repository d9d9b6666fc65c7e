// The raw baselines that figures are printed beside, when they need more than a raw etcd call:
// a NATS fan-out (the watch steps) and a bare Node HTTPS server (idle watch memory).
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerProcess } from '@orch/suite';
import { connect as natsConnect } from 'nats';

/** What `subscribers` NATS subscribers on one subject received of `total` messages. */
export interface NatsFanOutResult {
  /** Publish → receive latencies in ms, sorted. */
  latencies: number[];
  received: number;
}

/**
 * NATS publish → subscribe for `subscribers` subscribers on one subject (over two connections),
 * `rate` messages a second for `seconds`; the messages are about as large as a watch event.
 */
export async function natsFanOut(
  natsUrl: string,
  subscribers: number,
  rate: number,
  seconds: number
): Promise<NatsFanOutResult> {
  const total = rate * seconds;
  const conns = await Promise.all([1, 2].map(() => natsConnect({ servers: natsUrl })));
  const pub = await natsConnect({ servers: natsUrl });
  const natsLat: number[] = [];
  let natsRecv = 0;
  const subject = 'bench.watch';
  for (let s = 0; s < subscribers; s++) {
    conns[s % conns.length]!.subscribe(subject, {
      callback: (_err, msg) => {
        natsRecv++;
        natsLat.push(performance.now() - Number(new TextDecoder().decode(msg.data).slice(0, 20)));
      },
    });
  }
  await Promise.all(conns.map((c) => c.flush()));
  const padding = 'z'.repeat(600);
  const n0 = performance.now();
  let k = 0;
  while (k < total) {
    const due = Math.min(total, Math.floor(((performance.now() - n0) / 1000) * rate));
    while (k < due) {
      const stamp = performance.now().toFixed(3).padEnd(20);
      pub.publish(subject, new TextEncoder().encode(stamp + padding));
      k++;
    }
    await sleep(2);
  }
  await pub.flush();
  const nd = performance.now() + 5000;
  while (performance.now() < nd && natsRecv < total * subscribers) await sleep(20);
  await Promise.all([...conns, pub].map((c) => c.close()));
  natsLat.sort((a, b) => a - b);
  return { latencies: natsLat, received: natsRecv };
}

/**
 * A bare Node HTTPS server that holds every request open: the platform's cost of one idle TLS
 * connection.
 */
const bareHttpsServer = `
const https = require('node:https');
const fs = require('node:fs');
const [cert, key, ca] = process.argv.slice(1).map((f) => fs.readFileSync(f));
const open = [];
const tls = { cert, key, ca, requestCert: true, rejectUnauthorized: false };
const srv = https.createServer(tls, (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  res.write(' ');
  open.push(res);
});
srv.keepAliveTimeout = 65000;
srv.listen(0, '127.0.0.1', () => console.log(srv.address().port));
`;

/**
 * A bare Node HTTP/2 server (TLS, the gateway's stream and window settings) that holds every
 * stream open: the platform's cost of one idle stream on a shared connection.
 */
const bareHttp2Server = `
const http2 = require('node:http2');
const fs = require('node:fs');
const [cert, key, ca] = process.argv.slice(1).map((f) => fs.readFileSync(f));
const open = [];
const srv = http2.createSecureServer(
  {
    cert, key, ca, requestCert: true, rejectUnauthorized: false,
    settings: { maxConcurrentStreams: 100, initialWindowSize: 262144, maxFrameSize: 262144 },
  },
  (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(' ');
    open.push(res);
  }
);
srv.on('session', (s) => s.setLocalWindowSize(262144 * 100));
srv.listen(0, '127.0.0.1', () => console.log(srv.address().port));
`;

export interface BareHttpsServer {
  child: ChildProcess;
  port: number;
  kill(): void;
}

/**
 * Starts the bare HTTPS server (or, with `http2`, the bare HTTP/2 one) with a serving
 * certificate; resolves once it listens.
 */
export async function startBareHttpsServer(
  files: {
    certFile: string;
    keyFile: string;
    caFile: string;
  },
  protocol: 'http/1.1' | 'h2' = 'http/1.1'
): Promise<BareHttpsServer> {
  const script = protocol === 'h2' ? bareHttp2Server : bareHttpsServer;
  const child = spawn(
    process.execPath,
    ['-e', script, files.certFile, files.keyFile, files.caFile],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  );
  registerProcess(child);
  const port = await new Promise<number>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())))
  );
  return { child, port, kill: () => child.kill('SIGKILL') };
}
