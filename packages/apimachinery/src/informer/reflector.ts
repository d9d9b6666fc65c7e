// The Reflector (client-go tools/cache/reflector.go ListAndWatch): lists through a
// ListerWatcher, hands the state to its sink (Replace), then watches from the list's revision.
// When the watch ends or fails it watches again from the last revision it delivered (after a
// pause on an error); when that history is gone (410) it lists again. The sink sees every change
// once, in increasing revision order, and progress only forward.
import { isGone, toStatusError } from '../errors/index.js';
import type { ListerWatcher, ReflectorSink, WatchSink } from './interfaces.js';
import { objectKey } from './object-key.js';
import { RevisionCursor } from './revision-cursor.js';

type Obj = Record<string, unknown>;

export interface ReflectorLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface ReflectorOptions {
  /** Names the reflector in logs (the type's prefix or resource). */
  name?: string;
  log?: ReflectorLogger;
  /** Pause after a failed list or watch before the next attempt. */
  retryMs?: number;
}

const silent: ReflectorLogger = { info: () => undefined, warn: () => undefined };

export class Reflector {
  readonly name: string;
  readonly #lw: ListerWatcher;
  readonly #sink: ReflectorSink;
  readonly #log: ReflectorLogger;
  readonly #retryMs: number;
  readonly #abort = new AbortController();
  #cursor = new RevisionCursor(0);
  #lists = 0;
  #running: Promise<void> | undefined;

  constructor(lw: ListerWatcher, sink: ReflectorSink, opts: ReflectorOptions = {}) {
    this.#lw = lw;
    this.#sink = sink;
    this.name = opts.name ?? 'reflector';
    this.#log = opts.log ?? silent;
    this.#retryMs = opts.retryMs ?? 1000;
  }

  /** The revision the sink is complete up to (0 before the first list). */
  get lastRevision(): number {
    return this.#cursor.revision;
  }

  /** How many lists replaced the sink's state so far (the first one and every relist). */
  get lists(): number {
    return this.#lists;
  }

  get stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  /** Starts listing and watching (once); resolves when stopped. */
  run(): Promise<void> {
    this.#running ??= this.#loop();
    return this.#running;
  }

  stop(): void {
    this.#abort.abort();
  }

  /** Asks the source for progress up to `revision` (see ListerWatcher.requestProgress). */
  requestProgress(revision: number, timeoutMs: number): Promise<boolean> {
    return this.#lw.requestProgress?.(revision, timeoutMs) ?? Promise.resolve(false);
  }

  async #loop(): Promise<void> {
    const signal = this.#abort.signal;
    let needList = true;
    const sink: WatchSink = {
      change: (type, object, revision, prevObject) => {
        if (signal.aborted || !this.#cursor.accept(revision, objectKey(object))) return;
        this.#sink.change(type, object, revision, prevObject);
      },
      progress: (revision) => {
        if (signal.aborted || revision < this.#cursor.revision) return;
        this.#cursor.complete(revision);
        this.#sink.progress(revision);
      },
    };
    while (!signal.aborted) {
      try {
        if (needList) {
          const { items, revision } = await this.#lw.list(signal);
          if (signal.aborted) break;
          this.#cursor = new RevisionCursor(revision);
          this.#lists++;
          this.#sink.replace(items as Obj[], revision);
          needList = false;
        }
        await this.#lw.watch(this.#cursor.from, sink, signal);
      } catch (err) {
        if (signal.aborted) break;
        const se = toStatusError(err);
        if (!needList && isGone(err)) {
          this.#log.warn('watch history is gone; listing again', {
            name: this.name,
            revision: this.#cursor.revision,
            err: se.message,
          });
          needList = true;
          continue;
        }
        this.#log.warn(needList ? 'list failed; retrying' : 'watch ended; watching again', {
          name: this.name,
          revision: this.#cursor.revision,
          err: se.message,
        });
        await pause(this.#retryMs, signal);
      }
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
