// The watch cache's keys in order, as an immutable sequence of sorted blocks. A snapshot holds
// one version; a change of a few keys makes a new version that copies the blocks those keys fall
// in and the list of blocks, and shares every other block. Upstream's watch cache keeps its store
// in a B-tree whose Clone shares nodes for the same reason. A single sorted array had to be
// copied whole for each snapshot after a create: a LIST of 100 objects from a cache of 200,000
// after one create spent 2.7 ms copying and moving keys.

/** First index in sorted `keys` whose key is >= `key`. */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A block splits in two when it grows past this many keys. */
const maxBlock = 512;

export class SortedKeys {
  /** No keys. */
  static get empty(): SortedKeys {
    return empty;
  }

  readonly length: number;
  readonly #blocks: readonly (readonly string[])[];
  /** The index of each block's first key. */
  readonly #starts: number[];

  private constructor(blocks: readonly (readonly string[])[]) {
    this.#blocks = blocks;
    this.#starts = new Array<number>(blocks.length);
    let n = 0;
    for (let b = 0; b < blocks.length; b++) {
      this.#starts[b] = n;
      n += blocks[b]!.length;
    }
    this.length = n;
  }

  /** The keys of `sorted` (in order, each once). */
  static of(sorted: readonly string[]): SortedKeys {
    const blocks: string[][] = [];
    for (let i = 0; i < sorted.length; i += maxBlock / 2)
      blocks.push(sorted.slice(i, i + maxBlock / 2));
    return new SortedKeys(blocks);
  }

  /** The first index whose key is >= `key` (length when none is). */
  lowerBound(key: string): number {
    const b = this.#blockFor(key);
    if (b === this.#blocks.length) return this.length;
    return this.#starts[b]! + lowerBound(this.#blocks[b]!, key);
  }

  has(key: string): boolean {
    const b = this.#blockFor(key);
    if (b === this.#blocks.length) return false;
    const block = this.#blocks[b]!;
    return block[lowerBound(block, key)] === key;
  }

  /** The key at index `i`. */
  at(i: number): string | undefined {
    if (i < 0 || i >= this.length) return undefined;
    const b = this.#blockAt(i);
    return this.#blocks[b]![i - this.#starts[b]!];
  }

  /** Calls `fn` with each key from index `from` on, in order, until it answers false. */
  forEachFrom(from: number, fn: (key: string, index: number) => boolean): void {
    if (from >= this.length) return;
    for (let b = this.#blockAt(from), i = from - this.#starts[b]!; b < this.#blocks.length; b++) {
      const block = this.#blocks[b]!;
      const start = this.#starts[b]!;
      for (; i < block.length; i++) if (!fn(block[i]!, start + i)) return;
      i = 0;
    }
  }

  toArray(): string[] {
    return this.#blocks.flat();
  }

  /**
   * These keys with each of `changed` (sorted, each once) present or absent as `has` says. The
   * blocks no changed key falls in are shared with this version, which is left as it is.
   */
  updated(changed: readonly string[], has: (key: string) => boolean): SortedKeys {
    if (changed.length === 0) return this;
    if (changed.length > this.length / 16) return this.#rebuilt(changed, has);
    const edited = new Map<number, string[]>();
    for (const key of changed) {
      // The first block whose last key is >= key (the last one for a key past them all): every
      // key of the blocks before it is smaller, so the key goes in it, in order.
      const b = Math.min(this.#blockFor(key), this.#blocks.length - 1);
      if (b < 0) return this.#rebuilt(changed, has); // no block at all
      let block = edited.get(b);
      if (!block) edited.set(b, (block = this.#blocks[b]!.slice()));
      const i = lowerBound(block, key);
      const present = block[i] === key;
      if (has(key)) {
        if (!present) block.splice(i, 0, key);
      } else if (present) block.splice(i, 1);
    }
    const blocks: (readonly string[])[] = [];
    for (let b = 0; b < this.#blocks.length; b++) {
      const block = edited.get(b) ?? this.#blocks[b]!;
      if (block.length === 0) continue;
      if (block.length <= maxBlock) blocks.push(block);
      else
        for (let i = 0; i < block.length; i += maxBlock / 2)
          blocks.push(block.slice(i, i + maxBlock / 2));
    }
    // Deletes can leave many small blocks: past twice as many as the keys need, start afresh.
    if (blocks.length > 2 * Math.ceil(this.length / (maxBlock / 2)) + 2)
      return SortedKeys.of(blocks.flat());
    return new SortedKeys(blocks);
  }

  /** updated(), by a merge of every key (when many changed). */
  #rebuilt(changed: readonly string[], has: (key: string) => boolean): SortedKeys {
    const keys = this.toArray();
    const merged: string[] = [];
    let i = 0;
    let j = 0;
    while (i < keys.length || j < changed.length) {
      if (j >= changed.length || (i < keys.length && keys[i]! < changed[j]!)) {
        merged.push(keys[i++]!);
        continue;
      }
      const key = changed[j++]!;
      if (keys[i] === key) i++;
      if (has(key)) merged.push(key);
    }
    return SortedKeys.of(merged);
  }

  /** The block holding index `i` (0 <= i < length). */
  #blockAt(i: number): number {
    let lo = 0;
    let hi = this.#blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.#starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The first block whose last key is >= `key`; the number of blocks when there is none. */
  #blockFor(key: string): number {
    let lo = 0;
    let hi = this.#blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.#blocks[mid]!;
      if (block[block.length - 1]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const empty = SortedKeys.of([]);
