// What etcd itself holds, read directly (not through orch), for the chaos test's checks: the
// keys of a prefix now, a key at a past revision, and the prefix's history of changes.
import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3 } from 'etcd3';
import type { IWatchResponse } from 'etcd3';

export interface EtcdChange {
  type: 'PUT' | 'DELETE';
  key: string;
  revision: number;
  /** data.v of the object put. */
  value: string | undefined;
}

export interface EtcdObject {
  revision: number;
  value: string | undefined;
}

export class EtcdTruth {
  readonly #etcd: Etcd3;

  constructor(endpoint: string) {
    this.#etcd = new Etcd3({ hosts: endpoint });
  }

  /** name (the key's last segment) → mod_revision and data.v, at the current revision. */
  async current(prefix: string): Promise<{ revision: number; objects: Map<string, EtcdObject> }> {
    const res = await this.#etcd.kv.range({
      key: Buffer.from(prefix),
      range_end: Buffer.from(prefixEnd(prefix)),
    });
    const objects = new Map<string, EtcdObject>();
    for (const kv of res.kvs) {
      objects.set(kv.key.toString().slice(prefix.length), {
        revision: Number(kv.mod_revision),
        value: valueOf(kv.value),
      });
    }
    return { revision: Number(res.header.revision), objects };
  }

  /** The key as it was at `revision` (mod_revision and data.v), or undefined if absent then. */
  async at(key: string, revision: number): Promise<EtcdObject | undefined> {
    const res = await this.#etcd.kv.range({ key: Buffer.from(key), revision });
    const kv = res.kvs[0];
    return kv ? { revision: Number(kv.mod_revision), value: valueOf(kv.value) } : undefined;
  }

  /**
   * Every change under `prefix` in (fromRevision, upTo], in revision order: one etcd watch from
   * that revision, read until it delivers the change at `upTo` (a change the caller made, so
   * that the end is known: etcd 3.4's progress notification may come before the history).
   * Bounded by `timeoutMs`.
   */
  async history(
    prefix: string,
    fromRevision: number,
    upTo: number,
    timeoutMs = 20_000
  ): Promise<EtcdChange[]> {
    const stream = await this.#etcd.watchClient.watch();
    const changes: EtcdChange[] = [];
    let done = false;
    let failure: Error | undefined;
    stream.on('data', (res: IWatchResponse) => {
      if (res.canceled) failure = new Error(`history watch cancelled: ${res.cancel_reason}`);
      for (const e of res.events) {
        changes.push({
          type: e.type === 'Delete' ? 'DELETE' : 'PUT',
          key: e.kv.key.toString(),
          revision: Number(e.kv.mod_revision),
          value: e.type === 'Delete' ? undefined : valueOf(e.kv.value),
        });
      }
      if ((changes.at(-1)?.revision ?? 0) >= upTo) done = true;
    });
    stream.on('error', (err: Error) => (failure ??= err));
    stream.write({
      create_request: {
        key: Buffer.from(prefix),
        range_end: Buffer.from(prefixEnd(prefix)),
        start_revision: fromRevision + 1,
      },
    });
    const deadline = Date.now() + timeoutMs;
    try {
      while (!done) {
        if (failure) throw failure;
        if (Date.now() > deadline) {
          throw new Error(`etcd history of ${prefix} not complete within ${timeoutMs} ms`);
        }
        await sleep(100);
      }
    } finally {
      stream.end();
    }
    return changes.filter((c) => c.revision <= upTo);
  }

  close(): void {
    this.#etcd.close();
  }
}

function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

function valueOf(value: Buffer): string | undefined {
  try {
    return (JSON.parse(value.toString()) as { data?: Record<string, string> }).data?.['v'];
  } catch {
    return undefined;
  }
}
