// Compaction keeping a window of history (5 minutes by default): every interval, remember the
// current revision; compact to the newest remembered revision older than the window.
import type { Etcd3 } from 'etcd3';
import type { Logger } from '@orch/component-base/logs';

export class Compactor {
  readonly #etcd: Etcd3;
  readonly #log: Logger;
  readonly #retentionMs: number;
  readonly #intervalMs: number;
  readonly #samples: { at: number; revision: number }[] = [];
  #compacted = 0;
  #timer: NodeJS.Timeout | undefined;
  #done: (() => void) | undefined;

  constructor(etcd: Etcd3, log: Logger, opts: { retentionMs: number; intervalMs: number }) {
    this.#etcd = etcd;
    this.#log = log;
    this.#retentionMs = opts.retentionMs;
    this.#intervalMs = opts.intervalMs;
  }

  run(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#done = resolve;
      const tick = (): void => {
        void this.compactOnce().finally(() => {
          if (this.#done) this.#timer = setTimeout(tick, this.#intervalMs);
        });
      };
      tick();
    });
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    const done = this.#done;
    this.#done = undefined;
    done?.();
  }

  async compactOnce(now = Date.now()): Promise<number> {
    try {
      const res = await this.#etcd.kv.range({ key: Buffer.from('/registry/'), count_only: true });
      this.#samples.push({ at: now, revision: Number(res.header.revision) });
      let target = 0;
      while (this.#samples.length > 0 && (this.#samples[0]?.at ?? now) <= now - this.#retentionMs) {
        target = this.#samples.shift()?.revision ?? target;
      }
      if (target > this.#compacted) {
        await this.#etcd.kv.compact({ revision: target, physical: false });
        this.#compacted = target;
        this.#log.info('compacted', { revision: target });
      }
    } catch (err) {
      if (err instanceof Error && /compacted/.test(err.message)) return this.#compacted;
      this.#log.warn('compaction failed', { err });
    }
    return this.#compacted;
  }
}
