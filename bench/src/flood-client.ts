// The flooding client of the apf overload step, on a thread of its own: reading its answers (a
// LIST of thousands of objects is a megabyte) on the well-behaved client's event loop would
// delay the very requests whose latency the step measures.
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';

export interface FloodClientInput {
  /** Gateway base URLs; the loops take them in turn. */
  gateways: string[];
  /** Collection path the flood LISTs and POSTs to. */
  collection: string;
  inFlight: number;
  tls: { ca: Buffer; cert: Buffer; key: Buffer };
}

/** Answers by status code, and what a 429 said in Retry-After. */
export interface FloodClientResult {
  codes: Record<string, number>;
  retryAfter: Record<string, number>;
  errors: string[];
}

/** Worker → main: 'started' once the loops run, 'result' after main's 'stop'. */
export type FloodClientMessage =
  { type: 'started' } | { type: 'result'; result: FloodClientResult };

async function main(): Promise<void> {
  const input = workerData as FloodClientInput;
  const agent = new Agent({ connect: input.tls, connections: 64, keepAliveTimeout: 60_000 });
  const result: FloodClientResult = { codes: {}, retryAfter: {}, errors: [] };
  let flooding = true;
  parentPort!.on('message', (m: string) => {
    if (m === 'stop') flooding = false;
  });
  const loops = Array.from({ length: input.inFlight }, async (_, w) => {
    const base = input.gateways[w % input.gateways.length]!;
    for (let i = 0; flooding; i++) {
      const list = (w + i) % 2 === 0;
      try {
        const res = await request(`${base}${input.collection}`, {
          method: list ? 'GET' : 'POST',
          dispatcher: agent,
          headers: list ? {} : { 'content-type': 'application/json' },
          body: list
            ? undefined
            : JSON.stringify({ metadata: { generateName: 'flood-' }, data: { v: 'x' } }),
        });
        await res.body.dump({ limit: 1 << 30 }); // read whole, kept nowhere
        const code = String(res.statusCode);
        result.codes[code] = (result.codes[code] ?? 0) + 1;
        if (res.statusCode === 429) {
          const after = String(res.headers['retry-after'] ?? '');
          result.retryAfter[after] = (result.retryAfter[after] ?? 0) + 1;
        }
      } catch (err) {
        if (result.errors.length < 5) result.errors.push(String(err));
      }
    }
  });
  parentPort!.postMessage({ type: 'started' } satisfies FloodClientMessage);
  await Promise.all(loops);
  parentPort!.postMessage({ type: 'result', result } satisfies FloodClientMessage);
  await agent.close();
}

void main();
