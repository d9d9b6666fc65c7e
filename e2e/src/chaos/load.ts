// The chaos test's steady write load: creates, updates and deletes of configmaps in one
// namespace over every gateway, a few writers at a time. Each key belongs to one writer, so the
// writes of a key are sequential and its final state is known: the last acknowledged write,
// or one of the writes attempted after it that got no answer (they may have been applied).
// Only a 2xx is recorded as acknowledged; a 5xx or a broken connection is retried on the next
// gateway. A writer's writes go through the gateways in turn, and each acknowledged write is
// read back at once through the next gateway with a consistent GET, which must show it (reads
// are linearizable across gateways, whichever process was just killed).
import { setTimeout as sleep } from 'node:timers/promises';
import type { AdminClient } from './admin-client.js';

/** One acknowledged create or update: its resourceVersion (the etcd mod_revision) and value. */
export interface AckedWrite {
  name: string;
  op: 'create' | 'update';
  revision: number;
  value: string;
}

/** What a key may hold in etcd: absent, or a configmap with data.v = value. */
export type KeyState = { exists: false } | { exists: true; value: string; revision?: number };

export interface KeyRecord {
  /** State after the last acknowledged write (absent before any). */
  acked: KeyState;
  /** Writes attempted after it that got no answer: each may have been applied. */
  unanswered: KeyState[];
}

export interface LoadCounts {
  attempts: number;
  acknowledged: number;
  /** No answer or a 5xx: retried. */
  retried: number;
  /** A 4xx telling the writer its idea of the key was wrong (after an unanswered write). */
  corrected: number;
}

export interface LoadOptions {
  namespace: string;
  keys: number;
  writers: number;
  /** Pause between one writer's writes. */
  pauseMs: number;
}

export class WriteLoad {
  readonly acked: AckedWrite[] = [];
  readonly keys = new Map<string, KeyRecord>();
  readonly counts: LoadCounts = { attempts: 0, acknowledged: 0, retried: 0, corrected: 0 };
  /** Consistent GETs through another gateway right after an acknowledged write, and those answered. */
  readonly readBacks = { attempted: 0, answered: 0 };
  /** Every write that got no answer or a 5xx: when, and what it got. */
  readonly failures: { at: number; what: string }[] = [];
  /** Unexpected answers (a 4xx that no earlier write explains), with evidence. */
  readonly surprises: string[] = [];
  readonly #client: AdminClient;
  readonly #opts: LoadOptions;
  #stopped = false;
  #running: Promise<void>[] = [];
  #seq = 0;

  constructor(client: AdminClient, opts: LoadOptions) {
    this.#client = client;
    this.#opts = opts;
    for (let k = 0; k < opts.keys; k++) {
      this.keys.set(keyName(k), { acked: { exists: false }, unanswered: [] });
    }
  }

  start(): void {
    for (let w = 0; w < this.#opts.writers; w++) this.#running.push(this.#writer(w));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#running);
  }

  async #writer(w: number): Promise<void> {
    const mine = [...this.keys.keys()].filter((_, k) => k % this.#opts.writers === w);
    /** What this writer believes each key holds. */
    const exists = new Map(mine.map((n) => [n, false]));
    let i = 0;
    while (!this.#stopped) {
      // Each write through the next gateway in turn, a retry through the one after.
      let gateway = (w + i) % this.#client.gatewayCount;
      const name = mine[i++ % mine.length]!;
      const record = this.keys.get(name)!;
      const value = `${name}.${++this.#seq}`;
      const base = `/api/v1/namespaces/${this.#opts.namespace}/configmaps`;
      const object = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: this.#opts.namespace },
        data: { v: value },
      };
      const op: 'create' | 'update' | 'delete' = !exists.get(name)
        ? 'create'
        : Math.random() < 0.7
          ? 'update'
          : 'delete';
      const attempted: KeyState = op === 'delete' ? { exists: false } : { exists: true, value };
      // Retry the same write until it gets an answer that says what happened.
      for (;;) {
        this.counts.attempts++;
        const a =
          op === 'create'
            ? await this.#client.call(gateway, 'POST', base, object)
            : op === 'update'
              ? await this.#client.call(gateway, 'PUT', `${base}/${name}`, object)
              : await this.#client.call(gateway, 'DELETE', `${base}/${name}`);
        if (a.status >= 200 && a.status < 300) {
          this.counts.acknowledged++;
          if (op === 'delete') {
            record.acked = { exists: false };
          } else {
            const revision = Number(
              (a.body as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion
            );
            record.acked = { exists: true, value, revision };
            this.acked.push({ name, op, revision, value });
          }
          record.unanswered = [];
          exists.set(name, op !== 'delete');
          await this.#readBack(gateway, `${base}/${name}`, op === 'delete' ? undefined : value);
          break;
        }
        if (a.status === 0 || a.status >= 500 || a.status === 429) {
          // Unanswered: it may have been applied. Try again elsewhere after a moment.
          this.counts.retried++;
          this.failures.push({
            at: Date.now(),
            what: `${op} ${name} via gateway ${gateway}: ${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 600)}`,
          });
          record.unanswered.push(attempted);
          gateway = (gateway + 1) % this.#client.gatewayCount;
          if (this.#stopped) break;
          await sleep(100);
          continue;
        }
        // A definite refusal: nothing changed. Explained only by an earlier unanswered write
        // (a create that did happen: 409; an update or delete of a key already gone: 404).
        const explained =
          record.unanswered.length > 0 &&
          ((op === 'create' && a.status === 409) || (op !== 'create' && a.status === 404));
        if (explained) this.counts.corrected++;
        else
          this.surprises.push(
            `${op} ${name} answered ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`
          );
        exists.set(name, op === 'create');
        break;
      }
      await sleep(this.#opts.pauseMs);
    }
  }

  /**
   * A consistent GET through the next gateway must show the write just acknowledged: its value,
   * or 404 after a delete. A read that gets no answer (a gateway or storage down) proves nothing.
   */
  async #readBack(gateway: number, path: string, value: string | undefined): Promise<void> {
    const other = (gateway + 1) % this.#client.gatewayCount;
    this.readBacks.attempted++;
    const r = await this.#client.call(other, 'GET', path);
    if (r.status === 0 || r.status >= 500 || r.status === 429) return;
    this.readBacks.answered++;
    const seen = (r.body as { data?: { v?: string } } | undefined)?.data?.v;
    const ok = value === undefined ? r.status === 404 : r.status === 200 && seen === value;
    if (!ok) {
      this.surprises.push(
        `stale read: after ${value === undefined ? 'a delete' : `writing ${value}`} through gateway ${gateway}, a consistent GET through gateway ${other} answered ${r.status} ${seen ?? JSON.stringify(r.body).slice(0, 200)}`
      );
    }
  }
}

export function keyName(k: number): string {
  return `cm-${k}`;
}
