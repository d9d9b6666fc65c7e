// The watch clients of the watch benchmark, on a thread of their own: parsing a hundred event
// streams would otherwise share one event loop with the writer and the commit tap, and delay
// both the writes and every timestamp. Times are wall-clock milliseconds
// (performance.timeOrigin + performance.now()), comparable across threads.
import { setMaxListeners } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';

export interface WatchClientsInput {
  urls: string[];
  tls: { ca: Buffer; cert: Buffer; key: Buffer };
}

/** Per watcher: how many ADDED events it got, and [send stamp, receive time] of each. */
export interface WatchClientsResult {
  received: number[];
  events: [string, number][][];
  errors: string[];
}

/** Worker → main: 'ready' (every watch answered 200) or 'failed', then 'progress' (fewest events any watcher has); main → worker: 'stop', answered by 'result'. */
export type WatchClientsMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  | { type: 'progress'; min: number }
  | { type: 'result'; result: WatchClientsResult };

export const sentStampRe = /"bench\.orch\.io\/sent":"([0-9.]+)"/;

export const wallClock = (): number => performance.timeOrigin + performance.now();

async function main(): Promise<void> {
  const input = workerData as WatchClientsInput;
  const agent = new Agent({
    connect: input.tls,
    keepAliveTimeout: 60_000,
    headersTimeout: 30_000,
    bodyTimeout: 0,
  });
  const abort = new AbortController();
  setMaxListeners(input.urls.length + 10, abort.signal); // one signal ends every watch
  const result: WatchClientsResult = {
    received: input.urls.map(() => 0),
    events: input.urls.map(() => []),
    errors: [],
  };
  const done: Promise<void>[] = [];
  try {
    await Promise.all(
      input.urls.map(async (url, k) => {
        const res = await request(url, { method: 'GET', dispatcher: agent, signal: abort.signal });
        if (res.statusCode !== 200)
          throw new Error(
            `watch ${url}: ${res.statusCode} ${(await res.body.text()).slice(0, 200)}`
          );
        res.body.setEncoding('utf8');
        done.push(
          (async () => {
            let buf = '';
            try {
              for await (const chunk of res.body as AsyncIterable<string>) {
                const at = wallClock();
                buf += chunk;
                let nl: number;
                while ((nl = buf.indexOf('\n')) >= 0) {
                  const line = buf.slice(0, nl);
                  buf = buf.slice(nl + 1);
                  const m = sentStampRe.exec(line);
                  if (m && line.includes('"ADDED"')) {
                    result.received[k]!++;
                    result.events[k]!.push([m[1]!, at]);
                  }
                }
              }
            } catch (err) {
              if (!abort.signal.aborted) result.errors.push(String(err));
            }
          })()
        );
      })
    );
  } catch (err) {
    parentPort!.postMessage({ type: 'failed', error: String(err) } satisfies WatchClientsMessage);
    abort.abort();
    await agent.destroy().catch(() => undefined);
    return;
  }
  parentPort!.postMessage({ type: 'ready' } satisfies WatchClientsMessage);
  const progress = setInterval(
    () =>
      parentPort!.postMessage({
        type: 'progress',
        min: Math.min(...result.received),
      } satisfies WatchClientsMessage),
    100
  );
  await new Promise<void>((resolve) => parentPort!.once('message', () => resolve()));
  clearInterval(progress);
  abort.abort();
  await Promise.all(done);
  await agent.destroy().catch(() => undefined);
  parentPort!.postMessage({ type: 'result', result } satisfies WatchClientsMessage);
}

if (parentPort) void main();
