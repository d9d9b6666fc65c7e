// Prometheus metrics over HTTP for services without an HTTP front of their own.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { Registry, collectDefaultMetrics } from 'prom-client';

export function newRegistry(component: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ component });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Serves `GET /metrics` from the registry on host:port. */
export async function serveMetrics(
  registry: Registry,
  host: string,
  port: number
): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (body) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(body),
      (err: unknown) => res.writeHead(500).end(String(err))
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}
