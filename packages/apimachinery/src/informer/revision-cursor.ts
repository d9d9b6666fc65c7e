// Where a watch is in the change stream, so that a replay after a gap or a new watch delivers
// each change once: one etcd revision may change several keys (one transaction), each its own
// event, so a revision can be partly delivered.

/**
 * Which changes a watch has delivered: everything up to `revision`, and of `revision` itself the
 * keys recorded (the first one alone; a set only for a revision of several keys, which is rare).
 */
export class RevisionCursor {
  revision: number;
  #first: string | undefined;
  #more: Set<string> | undefined;
  /** Whether every change of `revision` is delivered (a progress, or the start). */
  #complete = true;

  constructor(revision: number) {
    this.revision = revision;
  }

  /** The revision to replay or watch after: the last complete one. */
  get from(): number {
    return this.#complete ? this.revision : this.revision - 1;
  }

  /** True (and recorded) when the change of `key` at `revision` was not delivered yet. */
  accept(revision: number, key: string): boolean {
    if (revision < this.revision) return false;
    if (revision === this.revision) {
      if (this.#complete || key === this.#first || this.#more?.has(key)) return false;
      (this.#more ??= new Set()).add(key);
      return true;
    }
    this.revision = revision;
    this.#first = key;
    this.#more = undefined;
    this.#complete = false;
    return true;
  }

  /** Everything up to `revision` is delivered (a progress). */
  complete(revision: number): void {
    if (revision < this.revision || (revision === this.revision && this.#complete)) return;
    this.revision = revision;
    this.#first = undefined;
    this.#more = undefined;
    this.#complete = true;
  }
}
