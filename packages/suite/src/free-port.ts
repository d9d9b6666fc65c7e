import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (listen on port 0, read it, close). Another
 * process may take it before the caller binds, so callers retry on "address in use".
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close((err) => (err ? reject(err) : resolve(port)));
    });
  });
}

/** `count` distinct free loopback ports, none of them in `exclude`. */
export async function freePorts(count: number, exclude: readonly number[] = []): Promise<number[]> {
  const out: number[] = [];
  while (out.length < count) {
    const port = await freePort();
    if (!out.includes(port) && !exclude.includes(port)) out.push(port);
  }
  return out;
}

/** Whether nothing listens on 127.0.0.1:`port` (a listen there succeeds). */
export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
