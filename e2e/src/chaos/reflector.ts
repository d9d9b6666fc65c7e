// One watcher of the chaos test, as client-go's reflector: list, then watch from the list's
// resourceVersion; on a broken connection watch again from the last resourceVersion seen (an
// event's or a bookmark's); on 410 Gone list again. It keeps the objects it was told of and
// every event in order, in segments that each begin at a list, for the checks afterwards.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AdminClient } from './admin-client.js';

export interface SeenEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  name: string;
  revision: number;
  value: string | undefined;
}

/** The events seen after one list, until the next list. */
export interface Segment {
  /** The list's resourceVersion. */
  from: number;
  /** The last resourceVersion seen in this segment (event or bookmark). */
  to: number;
  events: SeenEvent[];
}

export interface ReflectorCounts {
  events: number;
  bookmarks: number;
  relists: number;
  reconnects: number;
}

interface WatchLine {
  type: string;
  object: {
    code?: number;
    message?: string;
    metadata?: { name?: string; resourceVersion?: string };
    data?: Record<string, string>;
  };
}

export class Reflector {
  readonly id: number;
  readonly gateway: number;
  readonly segments: Segment[] = [];
  readonly counts: ReflectorCounts = { events: 0, bookmarks: 0, relists: 0, reconnects: 0 };
  /** Broken invariants, with evidence: a revision not above the last, a bookmark going back. */
  readonly violations: string[] = [];
  /** The objects as this watcher knows them: name → revision and value. */
  readonly store = new Map<string, { revision: number; value: string | undefined }>();
  /** Why the last watch or list attempt failed, for a failure message. */
  lastProblem = '';
  readonly #client: AdminClient;
  readonly #path: string;
  #stopped = false;
  #abort: (() => void) | undefined;
  #running: Promise<void> | undefined;
  #listed: Promise<void> = Promise.resolve();

  constructor(client: AdminClient, opts: { id: number; gateway: number; namespace: string }) {
    this.#client = client;
    this.id = opts.id;
    this.gateway = opts.gateway;
    this.#path = `/api/v1/namespaces/${opts.namespace}/configmaps`;
  }

  /** The last resourceVersion seen (list, event or bookmark). */
  get revision(): number {
    return this.segments.at(-1)?.to ?? 0;
  }

  /** Lists, then watches until stop(); resolves once the first list is done. */
  start(): Promise<void> {
    this.#listed = this.#list();
    this.#running = this.#run();
    return this.#listed;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort?.();
    await this.#running;
  }

  async #run(): Promise<void> {
    await this.#listed;
    while (!this.#stopped) {
      const outcome = await this.#watchOnce();
      if (this.#stopped) return;
      if (outcome === 'gone') {
        this.counts.relists++;
        this.#listed = this.#list();
        await this.#listed;
      } else {
        this.counts.reconnects++;
        await sleep(outcome === 'ended' ? 0 : 200 + Math.random() * 300);
      }
    }
  }

  /** Lists until it gets an answer; begins a new segment at the list's resourceVersion. */
  async #list(): Promise<void> {
    while (!this.#stopped) {
      const a = await this.#client.call(this.gateway, 'GET', this.#path);
      if (a.status === 200) {
        const list = a.body as {
          metadata: { resourceVersion: string };
          items: WatchLine['object'][];
        };
        this.store.clear();
        for (const o of list.items) {
          this.store.set(o.metadata!.name!, {
            revision: Number(o.metadata!.resourceVersion),
            value: o.data?.['v'],
          });
        }
        const from = Number(list.metadata.resourceVersion);
        this.segments.push({ from, to: from, events: [] });
        return;
      }
      this.lastProblem = `list: ${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 200)}`;
      await sleep(200 + Math.random() * 300);
    }
  }

  /** One watch from the last revision: 'gone' on 410, 'broken' on failure, 'ended' if closed. */
  async #watchOnce(): Promise<'gone' | 'broken' | 'ended'> {
    const segment = this.segments.at(-1)!;
    const path = `${this.#path}?watch=1&allowWatchBookmarks=true&resourceVersion=${segment.to}`;
    const opened = await this.#client.stream(this.gateway, path);
    if ('error' in opened) {
      this.lastProblem = `watch: ${opened.error}`;
      return 'broken';
    }
    const { res, abort } = opened;
    this.#abort = abort;
    if (res.statusCode !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      this.lastProblem = `watch: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`;
      return res.statusCode === 410 ? 'gone' : 'broken';
    }
    let outcome: 'gone' | 'broken' | 'ended' = 'ended';
    res.on('error', () => undefined);
    const lines = createInterface({ input: res, crlfDelay: Infinity });
    try {
      for await (const line of lines) {
        if (!line.trim()) continue;
        const e = JSON.parse(line) as WatchLine;
        if (e.type === 'ERROR') {
          this.lastProblem = `watch ERROR ${e.object.code}: ${e.object.message}`;
          outcome = e.object.code === 410 ? 'gone' : 'broken';
          abort();
          break;
        }
        const revision = Number(e.object.metadata?.resourceVersion);
        if (e.type === 'BOOKMARK') {
          this.counts.bookmarks++;
          if (revision < segment.to) {
            this.violations.push(
              `watcher ${this.id} (gateway ${this.gateway}): BOOKMARK at ${revision} after ${segment.to}`
            );
          } else segment.to = revision;
          continue;
        }
        const name = e.object.metadata?.name ?? '?';
        if (!(revision > segment.to)) {
          this.violations.push(
            `watcher ${this.id} (gateway ${this.gateway}): ${e.type} ${name} at ${revision} after ${segment.to} (duplicate or out of order)`
          );
        }
        this.counts.events++;
        const value = e.object.data?.['v'];
        segment.events.push({ type: e.type as SeenEvent['type'], name, revision, value });
        segment.to = Math.max(segment.to, revision);
        if (e.type === 'DELETED') this.store.delete(name);
        else this.store.set(name, { revision, value });
      }
    } catch (err) {
      this.lastProblem = `watch stream: ${(err as Error).message}`;
      outcome = 'broken';
    } finally {
      this.#abort = undefined;
    }
    if (outcome === 'ended' && !res.complete) outcome = 'broken';
    return outcome;
  }
}
