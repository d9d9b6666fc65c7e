// kubectl-style JSONPath, the one expression of a CRD printer column (k8s client-go
// util/jsonpath parser.go and jsonpath.go, as upstream's tableconvertor runs `{<jsonPath>}` with
// missing keys allowed): `.field` (backslash escapes a dot), `..field` (recursive descent), `.*`
// and `[*]`, `['field']` and unions `['a','b']`, `[i]` with negative indexes, slices
// `[start:end:step]` and index unions `[0,2]`, and filters `[?(@.type=="Ready")]` with
// ==, !=, <, >, <=, >= against strings, numbers, booleans or another `@` path, or `[?(@.x)]`
// for existence. Evaluation yields the matched values in order; a step that finds nothing
// yields nothing (missing keys are no error).

type Json = unknown;

export type JSONPathNode =
  | { type: 'field'; name: string }
  | { type: 'fields'; names: string[] }
  | { type: 'recursive' }
  | { type: 'wildcard' }
  | { type: 'indexes'; slices: Slice[] }
  | { type: 'filter'; left: Operand; op: FilterOp | 'exists'; right?: Operand };

interface Slice {
  start?: number;
  end?: number;
  step?: number;
  /** `[i]` rather than `[i:]`: one element. */
  single: boolean;
}

type FilterOp = '==' | '!=' | '<' | '>' | '<=' | '>=';
type Operand = { path: JSONPathNode[] } | { literal: string | number | boolean };

/** A JSONPath that does not parse. */
export class JSONPathError extends Error {
  override readonly name = 'JSONPathError';
}

const terminators = new Set([' ', '.', ',', '[', ']', '$', '@', '{', '}', '(', ')']);

/** The index of the `]` closing the bracket opened at `open`, skipping quotes and parentheses. */
function closingBracket(s: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open + 1; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ']' && depth === 0) return i;
  }
  throw new JSONPathError(`unclosed array expect ]`);
}

function parseInt10(text: string, what: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (!/^-?\d+$/.test(t)) throw new JSONPathError(`invalid array index ${what}`);
  return Number(t);
}

function parseSlices(body: string): Slice[] {
  return body.split(',').map((part) => {
    const pieces = part.split(':');
    if (pieces.length > 3) throw new JSONPathError(`invalid array index ${part}`);
    const [start, end, step] = pieces.map((p) => parseInt10(p, part));
    if (pieces.length === 1 && start === undefined)
      throw new JSONPathError(`invalid array index ${part}`);
    return {
      ...(start !== undefined ? { start } : {}),
      ...(end !== undefined ? { end } : {}),
      ...(step !== undefined ? { step } : {}),
      single: pieces.length === 1,
    };
  });
}

function unquote(text: string): string | undefined {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === "'" || t[0] === '"') && t[t.length - 1] === t[0])
    return t.slice(1, -1).replace(/\\(.)/g, '$1');
  return undefined;
}

function parseOperand(text: string): Operand {
  const t = text.trim();
  const quoted = unquote(t);
  if (quoted !== undefined) return { literal: quoted };
  if (t === 'true' || t === 'false') return { literal: t === 'true' };
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return { literal: Number(t) };
  if (t.startsWith('@')) return { path: parseNodes(t.slice(1)) };
  throw new JSONPathError(`unrecognized filter operand ${t}`);
}

const filterPattern = /^(.+?)\s*(==|!=|<=|>=|<|>)\s*(.+)$/s;

function parseFilter(body: string): JSONPathNode {
  const m = filterPattern.exec(body.trim());
  if (!m) return { type: 'filter', left: parseOperand(body), op: 'exists' };
  return {
    type: 'filter',
    left: parseOperand(m[1] ?? ''),
    op: m[2] as FilterOp,
    right: parseOperand(m[3] ?? ''),
  };
}

function parseBracket(body: string): JSONPathNode {
  const t = body.trim();
  if (t.startsWith('?')) {
    const inner = t.slice(1).trim();
    if (!inner.startsWith('(') || !inner.endsWith(')'))
      throw new JSONPathError(`unclosed filter expression ${t}`);
    return parseFilter(inner.slice(1, -1));
  }
  if (t === '*') return { type: 'wildcard' };
  if (t.startsWith("'") || t.startsWith('"')) {
    const names = t.split(/,(?=\s*['"])/).map((p) => {
      const q = unquote(p);
      if (q === undefined) throw new JSONPathError(`invalid field ${p}`);
      return q;
    });
    return names.length === 1 ? { type: 'field', name: names[0] ?? '' } : { type: 'fields', names };
  }
  return { type: 'indexes', slices: parseSlices(t) };
}

function parseNodes(path: string): JSONPathNode[] {
  const nodes: JSONPathNode[] = [];
  let i = 0;
  const readName = (): string => {
    let name = '';
    while (i < path.length && !terminators.has(path[i] ?? '')) {
      if (path[i] === '\\' && i + 1 < path.length) i++;
      name += path[i];
      i++;
    }
    return name;
  };
  while (i < path.length) {
    const c = path[i];
    if (c === ' ') {
      i++;
    } else if (path.startsWith('..', i)) {
      i += 2;
      nodes.push({ type: 'recursive' });
      if (i < path.length && path[i] !== '[') {
        const name = readName();
        nodes.push(name === '*' ? { type: 'wildcard' } : { type: 'field', name });
      }
    } else if (c === '.') {
      i++;
      const name = readName();
      nodes.push(name === '*' ? { type: 'wildcard' } : { type: 'field', name });
    } else if (c === '[') {
      const close = closingBracket(path, i);
      nodes.push(parseBracket(path.slice(i + 1, close)));
      i = close + 1;
    } else {
      throw new JSONPathError(`unrecognized character in action: ${JSON.stringify(c)}`);
    }
  }
  return nodes;
}

/** Parses a column's JSONPath (`.spec.replicas`, without the braces kubectl templates add). */
export function parseJSONPath(path: string): JSONPathNode[] {
  const trimmed = path.trim();
  const inner = trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed.slice(1, -1) : trimmed;
  return parseNodes(inner.startsWith('$') ? inner.slice(1) : inner);
}

const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function sliceIndexes(length: number, s: Slice): number[] {
  let start = s.start ?? 0;
  if (start < 0) start += length;
  if (s.single) return start >= 0 && start < length ? [start] : [];
  let end = s.end ?? length;
  if (end < 0) end += length;
  const step = s.step ?? 1;
  if (step <= 0) return [];
  start = Math.max(0, start);
  end = Math.min(length, end);
  const out: number[] = [];
  for (let i = start; i < end; i += step) out.push(i);
  return out;
}

function descendants(v: Json, out: Json[]): void {
  out.push(v);
  if (Array.isArray(v)) for (const x of v) descendants(x, out);
  else if (isObject(v)) for (const x of Object.values(v)) descendants(x, out);
}

function operandValues(op: Operand, item: Json): Json[] {
  return 'literal' in op ? [op.literal] : evaluateJSONPath(op.path, [item]);
}

function compare(a: Json, op: FilterOp, b: Json): boolean {
  const comparable =
    (typeof a === 'number' && typeof b === 'number') ||
    (typeof a === 'string' && typeof b === 'string');
  switch (op) {
    case '==':
      return comparable || typeof a === typeof b ? a === b : false;
    case '!=':
      return comparable || typeof a === typeof b ? a !== b : false;
    default: {
      if (!comparable) return false;
      const [x, y] = [a as number | string, b as number | string];
      return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
    }
  }
}

function step(node: JSONPathNode, input: Json[]): Json[] {
  const out: Json[] = [];
  for (const v of input) {
    switch (node.type) {
      case 'field':
        if (node.name === '') out.push(v);
        else if (isObject(v) && Object.hasOwn(v, node.name)) out.push(v[node.name]);
        break;
      case 'fields':
        if (isObject(v)) for (const n of node.names) if (Object.hasOwn(v, n)) out.push(v[n]);
        break;
      case 'wildcard':
        if (Array.isArray(v)) out.push(...(v as Json[]));
        else if (isObject(v)) out.push(...Object.values(v));
        break;
      case 'recursive':
        descendants(v, out);
        break;
      case 'indexes':
        if (Array.isArray(v))
          for (const s of node.slices)
            for (const i of sliceIndexes(v.length, s)) out.push((v as Json[])[i]);
        break;
      case 'filter':
        if (!Array.isArray(v)) break;
        for (const item of v as Json[]) {
          const lefts = operandValues(node.left, item);
          if (node.op === 'exists') {
            if (lefts.length > 0) out.push(item);
            continue;
          }
          const rights = node.right ? operandValues(node.right, item) : [];
          const [l] = lefts;
          const [r] = rights;
          if (lefts.length > 0 && rights.length > 0 && compare(l, node.op, r)) out.push(item);
        }
        break;
    }
  }
  return out;
}

/** The values a parsed path finds from the given roots, in order. */
export function evaluateJSONPath(nodes: readonly JSONPathNode[], roots: Json[]): Json[] {
  let cur = roots;
  for (const node of nodes) {
    cur = step(node, cur);
    if (cur.length === 0) break;
  }
  return cur;
}
