// The one recorder of a request's warnings (k8s.io/apiserver/pkg/endpoints/filters/warning.go,
// recorder.AddWarning), with the spec's limits ("Limits", webhook warnings): empty and repeated
// texts are dropped; while the total stays within 4096 characters every warning goes out whole;
// the warning that would pass it switches to truncating, where every warning (the ones already
// recorded included, replayed) is cut to 256 characters, and once 4096 characters are written
// further warnings are dropped. Lengths count code points (Go's runes).
export const truncateAtTotalRunes = 4 * 1024;
export const truncateItemRunes = 256;

const runes = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

const truncate = (s: string): string =>
  runes(s) > truncateItemRunes ? Array.from(s).slice(0, truncateItemRunes).join('') : s;

export class WarningRecorder {
  readonly #recorded = new Set<string>();
  /** Every distinct text added, in order (replayed when truncation starts). */
  readonly #ordered: string[] = [];
  /** What goes out in the `Warning` headers. */
  #written: string[] = [];
  #total = 0;
  #truncating = false;

  add(text: string): void {
    if (text.length === 0) return;
    if (this.#total >= truncateAtTotalRunes && this.#truncating) return;
    if (this.#recorded.has(text)) return;
    this.#recorded.add(text);
    this.#ordered.push(text);
    let item = text;
    if (this.#truncating) item = truncate(item);
    const length = runes(item);
    if (this.#total + length <= truncateAtTotalRunes || this.#truncating) {
      this.#total += length;
      this.#written.push(item);
      return;
    }
    this.#truncating = true;
    this.#total = 0;
    this.#written = [];
    for (const t of this.#ordered) {
      const cut = truncate(t);
      this.#total += runes(cut);
      this.#written.push(cut);
    }
  }

  /** The warnings to send, each one `Warning: 299 - "<text>"` header. */
  get warnings(): readonly string[] {
    return this.#written;
  }
}
