// orch-health-probe against a real gRPC server with mutual TLS (in this process): the exit
// codes of grpc_health_probe, which container health checks and exec probes read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { ensureClusterPki } from '../pki/cluster-pki.js';
import type { ClusterPki } from '../pki/cluster-pki.js';
import { startGrpcServer } from './grpc-server.js';
import type { GrpcServer } from './grpc-server.js';
import { probe, probeExit } from './health-probe.js';

let dir: string;
let pki: ClusterPki;
let server: GrpcServer;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-probe-'));
  pki = await ensureClusterPki(dir);
  const storage = pki.file('storage');
  server = await startGrpcServer({
    address: '127.0.0.1:0',
    tls: { caFile: pki.caFile, ...storage },
    services: [],
  });
});

after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const run = async (args: string[]) => {
  const lines: string[] = [];
  const code = await probe(args, (l) => lines.push(l));
  return { code, out: lines.join('\n') };
};
const tls = () => {
  const gw = pki.file('gateway');
  return [
    `--tls-ca-cert=${pki.caFile}`,
    `--tls-client-cert=${gw.certFile}`,
    `--tls-client-key=${gw.keyFile}`,
  ];
};

test('a serving server: exit 0, "status: SERVING"; before it serves: exit 4', async () => {
  const addr = `--addr=127.0.0.1:${server.port}`;
  server.setServing(false);
  assert.deepEqual(await run([addr, ...tls()]), {
    code: probeExit.unhealthy,
    out: 'service unhealthy (responded with "NOT_SERVING")',
  });
  server.setServing(true);
  assert.deepEqual(await run([addr, ...tls()]), { code: 0, out: 'status: SERVING' });
});

test('a named service the server reports: its own status; one it does not know: the call fails (3)', async () => {
  const addr = `--addr=127.0.0.1:${server.port}`;
  server.health.setStatus('orch.test/part', 'NOT_SERVING');
  assert.equal((await run([addr, ...tls(), '--service=orch.test/part'])).code, 4);
  server.health.setStatus('orch.test/part', 'SERVING');
  assert.equal((await run([addr, ...tls(), '--service=orch.test/part'])).code, 0);
  const unknown = await run([addr, ...tls(), '--service=orch.test/none']);
  assert.equal(unknown.code, probeExit.rpc);
  assert.match(unknown.out, /^error: health rpc failed: .*NOT_FOUND/);
});

test('no connection: nothing listening, or no client certificate for a server that requires one: exit 2', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as { port: number }).port;
  await new Promise((r) => closed.close(r));
  const nobody = await run([`--addr=127.0.0.1:${port}`, ...tls(), '--connect-timeout=300']);
  assert.equal(nobody.code, probeExit.connect);
  assert.match(nobody.out, /^timeout: failed to connect service "127\.0\.0\.1:\d+" within 300ms/);
  const plain = await run([`--addr=127.0.0.1:${server.port}`, '--connect-timeout=300']);
  assert.equal(plain.code, probeExit.connect);
});

test('bad flags: exit 1 with the reason and the usage', async () => {
  for (const args of [
    [],
    ['--addr=127.0.0.1:1', `--tls-ca-cert=${pki.caFile}`],
    ['--addr=127.0.0.1:1', '--rpc-timeout=soon'],
    ['--addr=127.0.0.1:1', '--unknown'],
  ]) {
    const r = await run(args);
    assert.equal(r.code, probeExit.flags, args.join(' '));
    assert.match(r.out, /^error: .*\nusage: orch-health-probe/s, args.join(' '));
  }
});
