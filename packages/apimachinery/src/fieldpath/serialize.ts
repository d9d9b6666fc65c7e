// FieldsV1, the JSON form of a field set (structured-merge-diff fieldpath/serialize.go,
// Set.ToJSON and Set.FromJSON; k8s managedfields/internal/fields.go). Each level is an object
// whose keys are serialized path elements in path-element order (fields, then keys, values,
// indexes); a member without children is an empty object, a member with children holds `.`
// first. Unknown element prefixes are dropped on reading, as upstream does.
import { PathElementSet } from './element.js';
import type { PathElement } from './element.js';
import { comparePathElements } from './element.js';
import {
  UnknownPathElementError,
  deserializePathElement,
  serializePathElement,
} from './serialize-pe.js';
import { Set, SetNodeMap } from './set.js';
import { goJsonString, isMap } from './value.js';

/** The fieldsV1 object of a managedFields entry. */
export type FieldsV1 = { [key: string]: FieldsV1 };

function emitContents(s: Set, includeSelf: boolean, out: FieldsV1): FieldsV1 {
  const members = s.members.members;
  const children = s.children.members;
  if (includeSelf && !(members.length === 0 && children.length === 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  while (mi < members.length || ci < children.length) {
    const mpe = members[mi];
    const child = children[ci];
    const c =
      mpe === undefined
        ? 1
        : child === undefined
          ? -1
          : comparePathElements(mpe, child.pathElement);
    if (c < 0) {
      out[serializePathElement(mpe as PathElement)] = {};
      mi++;
    } else if (c > 0) {
      const node = child as { pathElement: PathElement; set: Set };
      out[serializePathElement(node.pathElement)] = emitContents(node.set, false, {});
      ci++;
    } else {
      const node = child as { pathElement: PathElement; set: Set };
      out[serializePathElement(node.pathElement)] = emitContents(node.set, true, {});
      mi++;
      ci++;
    }
  }
  return out;
}

/** The fieldsV1 object of a set (key order as upstream writes it). */
export function setToFieldsV1(s: Set): FieldsV1 {
  return emitContents(s, false, {});
}

/** Set.ToJSON: the fieldsV1 text byte for byte as upstream writes it. */
export function setToJSON(s: Set): string {
  return writeObject(setToFieldsV1(s));
}

function writeObject(o: FieldsV1): string {
  const parts: string[] = [];
  for (const k of Object.keys(o)) parts.push(`${goJsonString(k)}:${writeObject(o[k] as FieldsV1)}`);
  return `{${parts.join(',')}}`;
}

/** Reads one level; returns its children (undefined when none) and whether it is a member. */
function readLevel(obj: unknown, where: string): { children: Set | undefined; isMember: boolean } {
  if (!isMap(obj)) throw new Error(`fieldsV1: expected an object at ${where || 'the root'}`);
  let children: Set | undefined;
  let isMember = false;
  for (const key of Object.keys(obj)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe: PathElement;
    try {
      pe = deserializePathElement(key);
    } catch (err) {
      if (err instanceof UnknownPathElementError) continue;
      throw new Error(`fieldsV1: ${(err as Error).message}`);
    }
    const sub = readLevel(obj[key], `${where}/${key}`);
    if (sub.isMember) {
      children ??= new Set();
      const m = children.members.members;
      const last = m[m.length - 1];
      if (last === undefined || comparePathElements(last, pe) < 0) m.push(pe);
      else children.members.insert(pe);
    }
    if (sub.children) {
      children ??= new Set();
      const m = children.children.members;
      const last = m[m.length - 1];
      if (last === undefined || comparePathElements(last.pathElement, pe) < 0)
        m.push({ pathElement: pe, set: sub.children });
      else {
        const target = children.children.descend(pe);
        const merged = target.union(sub.children);
        replaceContents(target, merged);
      }
    }
  }
  if (!children) isMember = true;
  return { children, isMember };
}

function replaceContents(target: Set, from: Set): void {
  target.members.members.splice(0, target.members.members.length, ...from.members.members);
  target.children.members.splice(0, target.children.members.length, ...from.children.members);
}

/** Set.FromJSON over a parsed fieldsV1 object. Bad elements are an error naming the key. */
export function setFromFieldsV1(fields: unknown): Set {
  const { children } = readLevel(fields, '');
  return children ?? new Set(new PathElementSet(), new SetNodeMap());
}

/** Set.FromJSON over fieldsV1 text. */
export function setFromJSON(text: string): Set {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`fieldsV1: ${(err as Error).message}`);
  }
  return setFromFieldsV1(parsed);
}
