// For the discovery and OpenAPI tests: the two endpoint sets on a plain HTTP server on loopback,
// with an anonymous kubeconfig pointing at it, so that real kubectl can read them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import { newPathNotFound, statusInWireOrder } from '@orch/apimachinery/errors';
import { requestListener } from '../http/handler.js';
import { PathMux } from '../http/path-mux.js';
import { installAggregatedDiscovery } from './aggregated-discovery.js';
import type { VersionInfo } from './discovery.js';
import { installOpenApi } from './install-openapi.js';

export interface DiscoveryServer {
  base: string;
  /** Holds `kubeconfig`; kubectl's cache can go beside it. */
  dir: string;
  close(): Promise<void>;
}

export async function startDiscoveryServer(
  registry: ResourceRegistry,
  version: VersionInfo
): Promise<DiscoveryServer> {
  const mux = new PathMux();
  installAggregatedDiscovery(mux, registry, version);
  installOpenApi(mux, registry);
  const server = createServer(
    requestListener(
      mux.handler((_req, res) => {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(`${JSON.stringify(statusInWireOrder(newPathNotFound().status))}\n`);
      })
    )
  );
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = await mkdtemp(join(tmpdir(), 'orch-discovery-'));
  await writeFile(
    join(dir, 'kubeconfig'),
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'orch', cluster: { server: base } }],
      users: [{ name: 'anonymous', user: {} }],
      contexts: [{ name: 'orch', context: { cluster: 'orch', user: 'anonymous' } }],
      'current-context': 'orch',
    })
  );
  return {
    base,
    dir,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
