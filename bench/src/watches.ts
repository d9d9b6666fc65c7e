// Watches held open by the bench: plain ones on the main thread (idle memory), and the event
// counting clients on a worker thread (watch-clients.ts).
import { Worker } from 'node:worker_threads';
import { request } from 'undici';
import type { Agent } from 'undici';
import type { ClientTls } from './client.js';
import type {
  WatchClientsInput,
  WatchClientsMessage,
  WatchClientsResult,
} from './watch-clients.js';

export interface Watcher {
  abort: AbortController;
  done: Promise<void>;
}

/** Opens a watch that is only held open (its events are read and dropped); resolves on 200. */
export async function openWatch(agent: Agent, url: string): Promise<Watcher> {
  const abort = new AbortController();
  const res = await request(url, { method: 'GET', dispatcher: agent, signal: abort.signal });
  if (res.statusCode !== 200) {
    const text = await res.body.text();
    throw new Error(`watch ${url}: ${res.statusCode} ${text.slice(0, 200)}`);
  }
  const done = (async () => {
    try {
      for await (const _chunk of res.body) {
        // held open; nothing to read
      }
    } catch {
      // aborted
    }
  })();
  return { abort, done };
}

export interface WatchClients {
  /** The fewest ADDED events any watcher has received so far. */
  minReceived(): number;
  stop(): Promise<WatchClientsResult>;
}

/** The watch clients on a worker thread (watch-clients.ts); resolves once every watch is open. */
export async function startWatchClients(urls: string[], tls: ClientTls): Promise<WatchClients> {
  const worker = new Worker(new URL('./watch-clients.js', import.meta.url), {
    workerData: { urls, tls } satisfies WatchClientsInput,
  });
  let min = 0;
  let resolveResult: (r: WatchClientsResult) => void = () => undefined;
  const result = new Promise<WatchClientsResult>((r) => (resolveResult = r));
  await new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: WatchClientsMessage) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'failed') reject(new Error(m.error));
      else if (m.type === 'progress') min = m.min;
      else resolveResult(m.result);
    });
  });
  return {
    minReceived: () => min,
    async stop() {
      worker.postMessage('stop');
      const r = await result;
      await worker.terminate();
      return r;
    },
  };
}
