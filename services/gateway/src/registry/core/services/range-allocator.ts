// A bitmap of handed-out offsets kept in storage as one RangeAllocation object, every change a
// compare-and-swap on its revision, so that any number of gateways share it without handing out
// an offset twice (upstream: pkg/registry/core/service/allocator/storage Etcd, whose
// tryUpdate runs GuaranteedUpdate on /registry/ranges/serviceips and .../servicenodeports).
import {
  isAlreadyExists,
  isConflict,
  isNotFound,
  newInternalError,
} from '@orch/apimachinery/errors';
import type { StorageInterface } from '@orch/apimachinery/storage';
import { dynamicOffset } from './service-ranges.js';

/** Why an offset could not be had. */
export type AllocateRefusal = 'allocated' | 'full';

type Json = Record<string, unknown>;

const maxAttempts = 100;

export class RangeAllocator {
  readonly #storage: StorageInterface;
  readonly #key: string;
  /** The range's text as stored (a change of flag is refused, as upstream). */
  readonly #range: string;
  readonly size: number;

  constructor(storage: StorageInterface, key: string, range: string, size: number) {
    this.#storage = storage;
    this.#key = key;
    this.#range = range;
    this.size = size;
  }

  /**
   * Hands out the given offset, or (without one) a free offset of the dynamic band, then of the
   * rest; dry run reads and answers without writing. Returns the offset or why not.
   */
  async allocate(offset: number | undefined, dryRun = false): Promise<number | AllocateRefusal> {
    return this.#change((bits) => {
      if (offset !== undefined) {
        if (has(bits, offset)) return 'allocated';
        set(bits, offset, true);
        return offset;
      }
      const found = this.#freeOffset(bits);
      if (found === undefined) return 'full';
      set(bits, found, true);
      return found;
    }, dryRun);
  }

  /** Gives offsets back (those not held are ignored). */
  async release(offsets: readonly number[]): Promise<void> {
    if (offsets.length === 0) return;
    await this.#change((bits) => {
      for (const o of offsets) if (o >= 0 && o < this.size) set(bits, o, false);
      return undefined;
    }, false);
  }

  /** Whether an offset is handed out now (a read). */
  async has(offset: number): Promise<boolean> {
    const { bits } = await this.#read();
    return has(bits, offset);
  }

  /** Random start in the dynamic band first, then the lower band (randomScanStrategyWithOffset). */
  #freeOffset(bits: Uint8Array): number | undefined {
    const off = dynamicOffset(this.size);
    const scan = (from: number, to: number): number | undefined => {
      const n = to - from;
      if (n <= 0) return undefined;
      const start = Math.floor(Math.random() * n);
      for (let i = 0; i < n; i++) {
        const o = from + ((start + i) % n);
        if (!has(bits, o)) return o;
      }
      return undefined;
    };
    return scan(off, this.size) ?? scan(0, off);
  }

  async #read(): Promise<{ bits: Uint8Array; revision: number | undefined }> {
    let stored: Json;
    try {
      stored = await this.#storage.get(this.#key, 'MOST_RECENT');
    } catch (err) {
      if (isNotFound(err))
        return { bits: new Uint8Array(Math.ceil(this.size / 8)), revision: undefined };
      throw err;
    }
    if (stored['range'] !== this.#range) {
      throw newInternalError(
        new Error(
          `the range ${JSON.stringify(stored['range'])} stored at ${this.#key} is not the configured ${this.#range}: allocations are refused until they agree`
        )
      );
    }
    const bits = new Uint8Array(Math.ceil(this.size / 8));
    bits.set(Buffer.from(String(stored['data'] ?? ''), 'base64').subarray(0, bits.length));
    const meta = stored['metadata'] as { resourceVersion?: string } | undefined;
    return { bits, revision: Number(meta?.resourceVersion ?? 0) };
  }

  /** Read, change, write on the read revision; again on a lost race. */
  async #change<T>(fn: (bits: Uint8Array) => T, dryRun: boolean): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const { bits, revision } = await this.#read();
      const before = Buffer.from(bits).toString('base64');
      const result = fn(bits);
      const data = Buffer.from(bits).toString('base64');
      if (dryRun || data === before) return result;
      const obj: Json = {
        apiVersion: 'v1',
        kind: 'RangeAllocation',
        metadata: { name: this.#key.split('/').pop() },
        range: this.#range,
        data,
      };
      try {
        if (revision === undefined) await this.#storage.create(this.#key, obj);
        else await this.#storage.update(this.#key, obj, { revision });
        return result;
      } catch (err) {
        const lost = isConflict(err) || isAlreadyExists(err) || isNotFound(err);
        if (lost && attempt < maxAttempts) continue;
        throw err;
      }
    }
  }
}

const has = (bits: Uint8Array, o: number): boolean => ((bits[o >> 3] ?? 0) & (1 << (o & 7))) !== 0;

function set(bits: Uint8Array, o: number, on: boolean): void {
  const i = o >> 3;
  const b = bits[i] ?? 0;
  bits[i] = on ? b | (1 << (o & 7)) : b & ~(1 << (o & 7));
}
