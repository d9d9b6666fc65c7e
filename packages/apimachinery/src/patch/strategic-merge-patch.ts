// Strategic merge patch (`application/strategic-merge-patch+json`, k8s apimachinery
// strategicpatch): a JSON merge patch whose lists follow the schema's legacy markers. A list
// with patch strategy `merge` and a merge key merges element by element (matched on the key);
// a `merge` list of scalars is a union; other lists are replaced. Directives: `$patch`
// (replace, delete, merge), `$retainKeys`, `$deleteFromPrimitiveList/<field>`,
// `$setElementOrder/<field>`; a null value deletes the key. Neither input is mutated.
import type { FieldSchema, MessageSchema } from '../schema-model/schema-model.js';
import { cloneJson } from './clone-json.js';
import { PatchError } from './patch-error.js';

type Json = Record<string, unknown>;
const isPlainObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const setElementOrder = '$setElementOrder/';
const deleteFromPrimitiveList = '$deleteFromPrimitiveList/';

/** Applies a strategic merge patch to an object of the given message (kind). */
export function applyStrategicMergePatch(
  original: unknown,
  patch: unknown,
  schema: MessageSchema
): unknown {
  if (!isPlainObject(patch)) throw new PatchError('a strategic merge patch must be a JSON object');
  const base = isPlainObject(original) ? (cloneJson(original) as Json) : {};
  const out = mergeObject(base, patch, schema);
  return out ?? {};
}

function set(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** Merges a patch object into target (owned, mutated); undefined when the patch deletes it. */
function mergeObject(
  target: Json,
  patch: Json,
  schema: MessageSchema | undefined
): Json | undefined {
  const directive = patch['$patch'];
  if (directive === 'delete') return undefined;
  if (directive === 'replace') {
    const { $patch: _p, ...rest } = patch;
    return cloneJson(rest) as Json;
  }
  if (directive !== undefined && directive !== 'merge')
    throw new PatchError(`unknown patch type: ${String(directive)}`);
  const retain = patch['$retainKeys'];
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys' || key.startsWith(setElementOrder)) continue;
    if (key.startsWith(deleteFromPrimitiveList)) {
      const field = key.slice(deleteFromPrimitiveList.length);
      const cur = target[field];
      if (Array.isArray(cur) && Array.isArray(value))
        set(
          target,
          field,
          cur.filter((x) => !value.some((v) => JSON.stringify(v) === JSON.stringify(x)))
        );
      continue;
    }
    if (value === null) {
      delete target[key];
      continue;
    }
    const field = schema?.jsonFields.get(key)?.field;
    const merged = mergeValue(target[key], value, field);
    if (merged === undefined) delete target[key];
    else set(target, key, merged);
  }
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(setElementOrder) || !Array.isArray(order)) continue;
    const name = key.slice(setElementOrder.length);
    const field = schema?.jsonFields.get(name)?.field;
    const list = target[name];
    if (Array.isArray(list)) set(target, name, reorder(list, order, field?.patchMergeKey));
  }
  if (Array.isArray(retain)) {
    for (const key of Object.keys(target)) if (!retain.includes(key)) delete target[key];
  }
  return target;
}

function mergeValue(current: unknown, value: unknown, field: FieldSchema | undefined): unknown {
  if (field?.repeated && Array.isArray(value))
    return mergeList(Array.isArray(current) ? current : [], value, field);
  if (isPlainObject(value)) {
    const msg = field && 'message' in field.value ? field.value.message : undefined;
    if (msg?.jsonType && msg.jsonType !== 'fields-v1') return cloneJson(value);
    if (field?.map) {
      const base: Json = isPlainObject(current) ? current : {};
      for (const [k, v] of Object.entries(value)) {
        if (v === null) delete base[k];
        else if (isPlainObject(v) && msg && !msg.jsonType) {
          const m = mergeObject(isPlainObject(base[k]) ? (base[k] as Json) : {}, v, msg);
          if (m === undefined) delete base[k];
          else set(base, k, m);
        } else set(base, k, cloneJson(v));
      }
      return base;
    }
    return mergeObject(isPlainObject(current) ? current : {}, value, msg);
  }
  return cloneJson(value);
}

function mergeList(current: unknown[], patch: unknown[], field: FieldSchema): unknown[] {
  const strategies = (field.patchStrategy ?? '').split(',');
  // A `{$patch: replace}` element replaces the whole list with the other elements.
  if (patch.some((e) => isPlainObject(e) && e['$patch'] === 'replace')) {
    return cloneJson(
      patch.filter((e) => !(isPlainObject(e) && e['$patch'] === 'replace'))
    ) as unknown[];
  }
  if (!strategies.includes('merge')) return cloneJson(patch) as unknown[];
  const msg = 'message' in field.value ? field.value.message : undefined;
  const key = field.patchMergeKey;
  if (!msg || msg.jsonType) {
    // Scalars: a union, in the original order then the new values.
    const out = [...current];
    for (const v of patch)
      if (!out.some((x) => JSON.stringify(x) === JSON.stringify(v))) out.push(cloneJson(v));
    return out;
  }
  if (!key)
    throw new PatchError(`the list ${field.name} has patch strategy merge but no merge key`);
  const out: unknown[] = [...current];
  for (const element of patch) {
    if (!isPlainObject(element))
      throw new PatchError(`the elements of ${field.name} must be objects`);
    const id = element[key];
    if (id === undefined)
      throw new PatchError(`an element of ${field.name} has no merge key ${key}`);
    const at = out.findIndex(
      (x) => isPlainObject(x) && JSON.stringify(x[key]) === JSON.stringify(id)
    );
    if (element['$patch'] === 'delete') {
      if (at >= 0) out.splice(at, 1);
      continue;
    }
    if (at >= 0) {
      const merged = mergeObject(out[at] as Json, element, msg);
      if (merged === undefined) out.splice(at, 1);
      else out[at] = merged;
    } else {
      const { $patch: _p, ...rest } = element;
      out.push(cloneJson(rest));
    }
  }
  return out;
}

function reorder(list: unknown[], order: unknown[], key: string | undefined): unknown[] {
  const idOf = (x: unknown): string => JSON.stringify(key && isPlainObject(x) ? x[key] : x);
  const wanted = order.map((o) => JSON.stringify(key && isPlainObject(o) ? o[key] : o));
  const ordered: unknown[] = [];
  for (const w of wanted) {
    const found = list.find((x) => idOf(x) === w);
    if (found !== undefined) ordered.push(found);
  }
  for (const x of list) if (!wanted.includes(idOf(x))) ordered.push(x);
  return ordered;
}
