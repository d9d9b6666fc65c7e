// Field sets (structured-merge-diff fieldpath/set.go): a trie of path elements. A Set holds
// the elements that are members at this level and, per element, the set below it; every
// operation (union, intersection, difference, recursive difference, leaves) merges sorted
// levels in linear time. Results may share subtrees with their operands, as upstream's do:
// insert into a set you built, not into the result of an operation on sets you still use.
import type { PathElement } from './element.js';
import { PathElementSet, comparePathElements, searchSorted } from './element.js';
import type { Path } from './path.js';
import { pathString } from './path.js';

interface SetNode {
  readonly pathElement: PathElement;
  readonly set: Set;
}

const nodeElement = (n: SetNode): PathElement => n.pathElement;

/** The children of a set level, sorted by path element (SetNodeMap). */
export class SetNodeMap {
  readonly members: SetNode[];

  constructor(sortedMembers: SetNode[] = []) {
    this.members = sortedMembers;
  }

  /** The set below pe, created when absent. */
  descend(pe: PathElement): Set {
    const i = searchSorted(this.members, pe, nodeElement);
    if (i >= 0) return (this.members[i] as SetNode).set;
    const set = new Set();
    const at = -i - 1;
    const node = { pathElement: pe, set };
    if (at === this.members.length) this.members.push(node);
    else this.members.splice(at, 0, node);
    return set;
  }

  get(pe: PathElement): Set | undefined {
    const i = searchSorted(this.members, pe, nodeElement);
    return i >= 0 ? (this.members[i] as SetNode).set : undefined;
  }

  size(): number {
    let n = 0;
    for (const m of this.members) n += m.set.size();
    return n;
  }

  empty(): boolean {
    for (const m of this.members) if (!m.set.empty()) return false;
    return true;
  }

  equals(s2: SetNodeMap): boolean {
    if (this.members.length !== s2.members.length) return false;
    for (let i = 0; i < this.members.length; i++) {
      const a = this.members[i] as SetNode;
      const b = s2.members[i] as SetNode;
      if (comparePathElements(a.pathElement, b.pathElement) !== 0) return false;
      if (!a.set.equals(b.set)) return false;
    }
    return true;
  }

  union(s2: SetNodeMap): SetNodeMap {
    const a = this.members;
    const b = s2.members;
    const out: SetNode[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i] as SetNode;
      const y = b[j] as SetNode;
      const c = comparePathElements(x.pathElement, y.pathElement);
      if (c < 0) {
        out.push(x);
        i++;
      } else if (c > 0) {
        out.push(y);
        j++;
      } else {
        out.push({ pathElement: x.pathElement, set: x.set.union(y.set) });
        i++;
        j++;
      }
    }
    while (i < a.length) out.push(a[i++] as SetNode);
    while (j < b.length) out.push(b[j++] as SetNode);
    return new SetNodeMap(out);
  }

  intersection(s2: SetNodeMap): SetNodeMap {
    const a = this.members;
    const b = s2.members;
    const out: SetNode[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i] as SetNode;
      const y = b[j] as SetNode;
      const c = comparePathElements(x.pathElement, y.pathElement);
      if (c < 0) i++;
      else if (c > 0) j++;
      else {
        const res = x.set.intersection(y.set);
        if (!res.empty()) out.push({ pathElement: x.pathElement, set: res });
        i++;
        j++;
      }
    }
    return new SetNodeMap(out);
  }

  /** The children of this level less those of s2 (members of s2 do not remove children). */
  difference(s2: Set): SetNodeMap {
    const a = this.members;
    const b = s2.children.members;
    const out: SetNode[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i] as SetNode;
      const y = b[j] as SetNode;
      const c = comparePathElements(x.pathElement, y.pathElement);
      if (c < 0) {
        out.push(x);
        i++;
      } else if (c > 0) j++;
      else {
        const diff = x.set.difference(y.set);
        if (!diff.empty()) out.push({ pathElement: x.pathElement, set: diff });
        i++;
        j++;
      }
    }
    while (i < a.length) out.push(a[i++] as SetNode);
    return new SetNodeMap(out);
  }

  /** Like difference, and a member of s2 removes the whole subtree below it. */
  recursiveDifference(s2: Set): SetNodeMap {
    const a = this.members;
    const b = s2.children.members;
    const out: SetNode[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i] as SetNode;
      const y = b[j] as SetNode;
      const c = comparePathElements(x.pathElement, y.pathElement);
      if (c < 0) {
        if (!s2.members.has(x.pathElement)) out.push(x);
        i++;
      } else if (c > 0) j++;
      else {
        if (!s2.members.has(x.pathElement)) {
          const diff = x.set.recursiveDifference(y.set);
          if (!diff.empty()) out.push({ pathElement: x.pathElement, set: diff });
        }
        i++;
        j++;
      }
    }
    for (; i < a.length; i++) {
      const x = a[i] as SetNode;
      if (!s2.members.has(x.pathElement)) out.push(x);
    }
    return new SetNodeMap(out);
  }

  leaves(): SetNodeMap {
    return new SetNodeMap(
      this.members.map((n) => ({ pathElement: n.pathElement, set: n.set.leaves() }))
    );
  }

  iteratePrefix(prefix: PathElement[], f: (p: Path) => void): void {
    for (const n of this.members) {
      prefix.push(n.pathElement);
      n.set.iteratePrefix(prefix, f);
      prefix.pop();
    }
  }
}

/** A set of paths (fieldpath.Set). */
export class Set {
  readonly members: PathElementSet;
  readonly children: SetNodeMap;

  constructor(members: PathElementSet = new PathElementSet(), children = new SetNodeMap()) {
    this.members = members;
    this.children = children;
  }

  /** NewSet. */
  static of(...paths: Path[]): Set {
    const s = new Set();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path (a zero-length path adds nothing). */
  insert(p: Path): void {
    if (p.length === 0) return;
    let children = this.children;
    let members = this.members;
    for (let i = 0; i < p.length - 1; i++) {
      const s = children.descend(p[i] as PathElement);
      children = s.children;
      members = s.members;
    }
    members.insert(p[p.length - 1] as PathElement);
  }

  has(p: Path): boolean {
    if (p.length === 0) return false;
    let children = this.children;
    let members = this.members;
    for (let i = 0; i < p.length - 1; i++) {
      const s = children.get(p[i] as PathElement);
      if (!s) return false;
      children = s.children;
      members = s.members;
    }
    return members.has(p[p.length - 1] as PathElement);
  }

  union(s2: Set): Set {
    return new Set(this.members.union(s2.members), this.children.union(s2.children));
  }

  intersection(s2: Set): Set {
    return new Set(this.members.intersection(s2.members), this.children.intersection(s2.children));
  }

  /** The paths of this set not in s2. A member of s2 does not remove the paths below it. */
  difference(s2: Set): Set {
    return new Set(this.members.difference(s2.members), this.children.difference(s2));
  }

  /** The paths of this set not in s2 and not below a member of s2. */
  recursiveDifference(s2: Set): Set {
    return new Set(this.members.difference(s2.members), this.children.recursiveDifference(s2));
  }

  /** The number of paths. */
  size(): number {
    return this.members.size() + this.children.size();
  }

  empty(): boolean {
    return this.members.size() === 0 && this.children.empty();
  }

  equals(s2: Set): boolean {
    return this.members.equals(s2.members) && this.children.equals(s2.children);
  }

  /** Calls f with every path, in order, a member before the paths below it. */
  iterate(f: (p: Path) => void): void {
    this.iteratePrefix([], f);
  }

  /** @internal */
  iteratePrefix(prefix: PathElement[], f: (p: Path) => void): void {
    for (const pe of this.members.members) f([...prefix, pe]);
    this.children.iteratePrefix(prefix, f);
  }

  /** Every path, as an array. */
  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }

  /** The set below pe (empty when none). */
  withPrefix(pe: PathElement): Set {
    return this.children.get(pe) ?? new Set();
  }

  /** The members that have no children: the paths that are not a prefix of another. */
  leaves(): Set {
    const leaves: PathElement[] = [];
    const members = this.members.members;
    const children = this.children.members;
    let ic = 0;
    for (const member of members) {
      while (
        ic < children.length &&
        comparePathElements((children[ic] as SetNode).pathElement, member) < 0
      )
        ic++;
      if (
        ic < children.length &&
        comparePathElements((children[ic] as SetNode).pathElement, member) === 0
      ) {
        ic++;
        continue;
      }
      leaves.push(member);
    }
    return new Set(new PathElementSet(leaves), this.children.leaves());
  }

  /** Set.String: one path per line. */
  toString(): string {
    const out: string[] = [];
    this.iterate((p) => out.push(pathString(p)));
    return out.join('\n');
  }
}
