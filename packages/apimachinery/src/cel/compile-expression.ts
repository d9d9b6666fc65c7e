// Over 600 lines on purpose: the runtime cost tracker and the static estimate charge each call
// through the same callCost and nodeCost over cel-js's private AST, which no other file should see.
// Compiling and evaluating CEL expressions (k8s.io/apiserver/pkg/cel/environment and
// plugin/cel/compile.go) over @marcbachmann/cel-js, with upstream's runtime cost limits.
//
// The library: @marcbachmann/cel-js 8 was chosen over @bufbuild/cel 0.6 and cel-js 0.8. It is
// maintained, has no dependencies, ships ESM with type definitions, implements the cel-spec
// macros (has, all, exists, exists_one, map, filter, cel.bind) and a type checker that refuses
// undeclared references and overloads before evaluation, and takes custom functions and receiver
// methods with typed overloads (the Kubernetes lists/regex/URL libraries in
// kubernetes-library.ts). None of the three tracks cost; this one exposes its checked AST, whose
// nodes evaluate through an overridable `evaluate`, so each node is charged here as it runs
// (runtime cost) and the same tree is walked for an estimate. @bufbuild/cel has no cost either
// and needs @bufbuild/protobuf; cel-js 0.8 is slower and less complete.
//
// Runtime cost per evaluated node (cel-go interpreter/runtimecost.go, spec "Expression cost"):
// literal 0; identifier, field selection and index 1; comparison 1; arithmetic 1; `in` over a
// list its size; string concatenation 0.1 per character; list literal 40; map literal 30; a
// function call 1, except string traversals (contains, startsWith, endsWith, indexOf, ...) 0.1
// per character, regex functions (matches, find, findAll) about length(regex) × length(input):
// cel-go's ⌈(1 + length(input)) × 0.1⌉ × ⌈length(regex) × 0.25⌉ (estimated without the 1), and
// list functions (sum, min, max, isSorted, indexOf, lastIndexOf) the list's size. Macros cost
// what their iterations evaluate. One evaluation may spend PER_CALL_LIMIT; a caller may pass a
// shared CostBudget (a policy's RUNTIME_CEL_COST_BUDGET) charged as well.
//
// Estimated cost: computed where every size is known, from the expression itself (literal lists
// iterated by macros, literal strings given to size-dependent functions) or from a caller's
// CelSizeModel (a CRD schema's maxItems/maxLength/maxProperties, as upstream's typed estimate).
// Anything that iterates or scans data of unknown size is not estimated and is bounded at
// runtime only.
import { Environment } from '@marcbachmann/cel-js';

import {
  CelCostError,
  COMPARISON_COST,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  PER_CALL_LIMIT,
  PER_CALL_LIMIT_MESSAGE,
  REGEX_STRING_LENGTH_COST_FACTOR,
  SELECT_AND_IDENT_COST,
  STRING_TRAVERSAL_COST_FACTOR,
} from './cost.js';
import type { CostBudget } from './cost.js';
import { compileGoRegexp } from './go-regexp.js';
import { registerKubernetesLibrary } from './kubernetes-library.js';
import { withTypedListSemantics } from './typed-lists.js';

/**
 * A declared variable: a cel-js type (`dyn`, `bool`, `map<string, dyn>`, ...) or a schema
 * object (field name to type or nested schema) for an object type whose fields are checked.
 */
export interface CelVariable {
  readonly name: string;
  readonly type: string | Readonly<Record<string, unknown>>;
}

/** A named object type: its fields and their types (a type name, possibly another object type's). */
export interface CelObjectType {
  readonly name: string;
  readonly fields: Readonly<Record<string, string>>;
}

/** A compiled expression, evaluated any number of times. */
export interface CompiledExpression {
  readonly expression: string;
  /** The checked result type (`bool`, `string`, `dyn`, ...). */
  readonly type: string;
  /** The worst-case cost where it can be computed; undefined when it depends on the input. */
  readonly estimatedCost: number | undefined;
  /**
   * Evaluates with `activation` (CEL values, see toCelValue). Throws the evaluation's error,
   * or CelCostError when PER_CALL_LIMIT or `budget` is exceeded.
   */
  evaluate(activation: Readonly<Record<string, unknown>>, budget?: CostBudget): unknown;
}

export type CompileResult =
  | { readonly compiled: CompiledExpression; readonly error?: undefined }
  | { readonly compiled?: undefined; readonly error: string };

// --- the library's AST, as far as cost accounting needs it --------------------------------

type EvalFn = (ev: unknown, ast: AstNode, ctx: unknown) => unknown;

interface AstNode {
  readonly op: string;
  readonly args: unknown;
  readonly meta: {
    readonly alternate?: AstNode;
    readonly macro?: Record<string, unknown> & { evaluate: EvalFn };
    readonly evaluate: EvalFn;
  };
  evaluate: EvalFn;
  /** A binary operator's operation on its evaluated operands, set by the type check. */
  handle?: (left: unknown, right: unknown, ...rest: unknown[]) => unknown;
}

function isNode(v: unknown): v is AstNode {
  return (
    v !== null &&
    typeof v === 'object' &&
    typeof (v as { op?: unknown }).op === 'string' &&
    typeof (v as { clone?: unknown }).clone === 'function' &&
    typeof (v as { meta?: unknown }).meta === 'object'
  );
}

function childNodes(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  const add = (v: unknown): void => {
    if (isNode(v)) out.push(v);
    else if (Array.isArray(v)) for (const x of v) add(x);
  };
  const a = node.args;
  switch (node.op) {
    case 'value':
    case 'id':
      break;
    case 'comprehension': {
      const c = a as Record<string, unknown>;
      for (const k of ['iterable', 'init', 'condition', 'step', 'result']) add(c[k]);
      break;
    }
    default:
      add(a);
  }
  const { alternate, macro } = node.meta;
  if (alternate) add(alternate);
  if (macro) for (const v of Object.values(macro)) add(v);
  // A macro (optional.or, orValue) keeps its own node among its values.
  return [...new Set(out)].filter((n) => n !== node);
}

// --- has() --------------------------------------------------------------------------------

/** A has() macro as the library keeps it: its argument, and the chain it records to evaluate. */
interface HasMacro {
  args: unknown[];
  macroHasProps?: AstNode[];
  typeCheck: (
    checker: { check(n: AstNode, ctx: unknown): unknown },
    m: HasMacro,
    ctx: unknown
  ) => unknown;
}

/**
 * Lets `has(e.f)` test a field of any expression `e`, as CEL defines the macro (Gateway API's
 * CRDs test `has(self[0].matches)`): cel-js 8 refuses a chain of fields that does not start at
 * an identifier. Its macro evaluates the root of the chain it records and then tests each field,
 * so recording the chain from any root, after type-checking that root, is all it takes.
 */
function widenHas(root: AstNode): void {
  const seen = new Set<AstNode>();
  const visit = (node: AstNode): void => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const c of childNodes(node)) visit(c);
    // cel-js types a node's macro loosely; has() macros carry what HasMacro names.
    const macro = node.meta.macro as unknown as HasMacro | undefined;
    if (node.op !== 'call' || (node.args as unknown[])[0] !== 'has' || !macro) return;
    const typeCheck = macro.typeCheck;
    macro.typeCheck = (checker, m, ctx) => {
      let at = m.args[0];
      if (isNode(at) && at.op === '.' && !m.macroHasProps) {
        const chain: AstNode[] = [];
        while (isNode(at) && (at.op === '.' || at.op === '.?')) {
          chain.push(at);
          at = (at.args as unknown[])[0];
        }
        if (isNode(at) && at.op !== 'id') {
          checker.check(at, ctx);
          m.macroHasProps = [...chain, at];
        }
      }
      return typeCheck(checker, m, ctx);
    };
  };
  visit(root);
}

// --- cost -----------------------------------------------------------------------------------

/** A stand-in of an estimated operand: only its size is known. */
const SIZE = Symbol('size');

function sizeOf(v: unknown): number {
  if (v !== null && typeof v === 'object' && SIZE in v) return (v as { [SIZE]: number })[SIZE];
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof Map || v instanceof Set) return v.size;
  if (v !== null && typeof v === 'object') return Object.keys(v).length;
  return 0;
}

const traversal = (n: number): number => Math.max(1, Math.ceil(n * STRING_TRAVERSAL_COST_FACTOR));

const STRING_TRAVERSAL_FUNCTIONS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'indexOf',
  'lastIndexOf',
  'lowerAscii',
  'upperAscii',
  'replace',
  'split',
  'substring',
  'trim',
  'join',
  'isURL',
  'url',
]);
const REGEX_FUNCTIONS = new Set(['matches', 'find', 'findAll']);
const LIST_FUNCTIONS = new Set(['sum', 'min', 'max', 'isSorted', 'indexOf', 'lastIndexOf']);

/** The cost of a call of `name` on `receiver` (undefined for a global call) with `args`. */
function callCost(
  name: string,
  receiver: unknown,
  args: readonly unknown[],
  estimating = false
): number {
  if (REGEX_FUNCTIONS.has(name)) {
    // cel-go: ⌈input × 0.1⌉ × ⌈regex × 0.25⌉, the input counted one longer at runtime.
    const input = receiver === undefined ? args[0] : receiver;
    const re = receiver === undefined ? args[1] : args[0];
    const inputLength = (estimating ? 0 : 1) + sizeOf(input);
    const inputCost = Math.ceil(inputLength * STRING_TRAVERSAL_COST_FACTOR);
    const regexCost = Math.ceil(sizeOf(re) * REGEX_STRING_LENGTH_COST_FACTOR);
    return Math.max(1, inputCost * regexCost);
  }
  if (Array.isArray(receiver) && LIST_FUNCTIONS.has(name)) return Math.max(1, receiver.length);
  if (STRING_TRAVERSAL_FUNCTIONS.has(name)) {
    const s = receiver === undefined ? args[0] : receiver;
    return traversal(sizeOf(s));
  }
  return 1;
}

/** The cost of `node` having evaluated to `result`, its operands read from `last`. */
function nodeCost(node: AstNode, result: unknown, last: Map<AstNode, unknown>): number {
  if (node.meta.alternate) return 0;
  if (node.meta.macro) return 1;
  const a = node.args as unknown[];
  switch (node.op) {
    case 'value':
    case 'comprehension':
    case 'accuValue':
    case 'accuInc':
    case 'accuPush':
    case '&&':
    case '||':
    case '?:':
      return 0;
    case 'id':
    case '.':
    case '.?':
    case '[]':
    case '[?]':
      return SELECT_AND_IDENT_COST;
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return COMPARISON_COST;
    case 'in': {
      const coll = last.get(a[1] as AstNode);
      return Array.isArray(coll) ? Math.max(1, coll.length) : 1;
    }
    case '+':
      return typeof result === 'string' || Array.isArray(result) ? traversal(sizeOf(result)) : 1;
    case 'list':
      return LIST_CREATE_BASE_COST;
    case 'map':
      return MAP_CREATE_BASE_COST;
    case 'call': {
      const [name, args] = node.args as [string, AstNode[]];
      return callCost(
        name,
        undefined,
        args.map((n) => last.get(n))
      );
    }
    case 'rcall': {
      const [name, recv, args] = node.args as [string, AstNode, AstNode[]];
      return callCost(
        name,
        last.get(recv),
        args.map((n) => last.get(n))
      );
    }
    default:
      return 1;
  }
}

/** The operators whose operands may be lists marked set or map. */
const TYPED_LIST_OPERATORS = new Set(['==', '!=', '+']);

/** The per-evaluation counter behind the wrapped nodes. */
class Tracker {
  used = 0;
  error: Error | undefined;
  readonly last = new Map<AstNode, unknown>();

  constructor(
    readonly limit: number,
    readonly shared: CostBudget | undefined
  ) {}

  charge(units: number): void {
    if (this.error) throw this.error;
    this.used += units;
    try {
      if (this.used > this.limit) throw new CelCostError(PER_CALL_LIMIT_MESSAGE);
      this.shared?.charge(units);
    } catch (err) {
      this.error = err as Error;
      throw err;
    }
  }
}

/**
 * Makes every node of `root` charge `state.tracker` as it evaluates, and gives `==`, `!=` and
 * `+` the semantics of lists marked set or map (typed-lists.ts).
 */
/** The input and pattern of a `matches` call (`s.matches(re)` or `matches(s, re)`). */
function matchesOperands(node: AstNode): { input: AstNode; pattern: AstNode } | undefined {
  const a = node.args;
  if ((node.op !== 'call' && node.op !== 'rcall') || !Array.isArray(a) || a[0] !== 'matches') {
    return undefined;
  }
  const [input, pattern] =
    node.op === 'rcall'
      ? [a[1], (a[2] as unknown[])[0]]
      : node.op === 'call'
        ? (a[1] as unknown[])
        : [];
  return isNode(input) && isNode(pattern) ? { input, pattern } : undefined;
}

/**
 * `matches` with the pattern read as RE2 reads it, as cel-go does (`(?i)` and the rest of
 * go-regexp.ts): the library's own test compiles it as a JavaScript RegExp, which refuses
 * Gateway API's `^(?i)...`. Operands that are not strings go to the library (its errors).
 */
function goMatches(node: AstNode, m: { input: AstNode; pattern: AstNode }): EvalFn {
  return (ev, ast, ctx) => {
    const input = m.input.evaluate(ev, m.input, ctx);
    const pattern = m.pattern.evaluate(ev, m.pattern, ctx);
    if (typeof input !== 'string' || typeof pattern !== 'string') {
      return node.meta.evaluate(ev, ast, ctx);
    }
    const re = compileGoRegexp(pattern);
    if (re instanceof Error) throw re;
    return re.test(input);
  };
}

function instrument(root: AstNode, state: { tracker: Tracker | undefined }): void {
  const seen = new Set<AstNode>();
  const visit = (node: AstNode): void => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const c of childNodes(node)) visit(c);
    if (typeof node.handle === 'function' && TYPED_LIST_OPERATORS.has(node.op)) {
      node.handle = withTypedListSemantics(node.op, node.handle);
    }
    const { alternate, macro } = node.meta;
    const matches = matchesOperands(node);
    const inner: EvalFn = alternate
      ? (ev, _ast, ctx) => alternate.evaluate(ev, alternate, ctx)
      : macro
        ? // cel-js evaluates a macro as the node it stands for.
          (ev, _ast, ctx) => macro.evaluate(ev, macro as unknown as AstNode, ctx)
        : matches
          ? goMatches(node, matches)
          : node.meta.evaluate;
    node.evaluate = (ev, ast, ctx) => {
      const t = state.tracker;
      if (t?.error) throw t.error;
      const r = inner(ev, ast, ctx);
      if (t) {
        if (r instanceof Promise) throw new Error('asynchronous CEL functions are not supported');
        t.last.set(node, r);
        t.charge(nodeCost(node, r, t.last));
      }
      return r;
    };
  };
  visit(root);
}

/**
 * What the estimator knows of the input's sizes (upstream's typed estimate from a schema's
 * maxItems/maxLength/maxProperties): opaque handles for a variable, a field of it, an element
 * (list item or map value) or key of it, and the largest size (characters, items, properties)
 * a handle's value may have. A handle of `undefined` is a value of unknown size.
 */
export interface CelSizeModel {
  variable(name: string): unknown;
  field(handle: unknown, name: string): unknown;
  element(handle: unknown): unknown;
  key(handle: unknown): unknown;
  maxSize(handle: unknown): number | undefined;
}

interface Estimate {
  readonly cost: number;
  /** The size handle of the value, when the model knows it. */
  readonly handle?: unknown;
}

/** The worst-case cost of `node`, or undefined when it depends on sizes nobody knows. */
function estimate(
  node: AstNode,
  model?: CelSizeModel,
  scope: ReadonlyMap<string, unknown> = new Map()
): Estimate | undefined {
  const { alternate, macro } = node.meta;
  if (alternate) return estimate(alternate, model, scope);
  const sum = (nodes: readonly AstNode[], own: number, sc = scope): number | undefined => {
    let total = own;
    for (const n of nodes) {
      const c = estimate(n, model, sc);
      if (c === undefined) return undefined;
      total += c.cost;
    }
    return total;
  };
  const known = (cost: number | undefined, handle?: unknown): Estimate | undefined =>
    cost === undefined ? undefined : { cost, handle };
  /** The largest size of an operand: a literal's, or its handle's. */
  const sizeBound = (n: AstNode, e: Estimate | undefined): number | undefined => {
    const it = n.meta.alternate ?? n;
    if (it.op === 'value') return sizeOf(it.args);
    if (it.op === 'list' || it.op === 'map') return (it.args as unknown[]).length;
    if (model && e?.handle !== undefined) return model.maxSize(e.handle);
    return undefined;
  };
  if (macro) return known(sum(childNodes(node), 1));
  switch (node.op) {
    case 'id': {
      const name = node.args as string;
      const handle = scope.has(name) ? scope.get(name) : model?.variable(name);
      return { cost: SELECT_AND_IDENT_COST, handle };
    }
    case '.':
    case '.?': {
      const [obj, name] = node.args as [AstNode, string];
      const o = estimate(obj, model, scope);
      if (!o) return undefined;
      const handle = model && o.handle !== undefined ? model.field(o.handle, name) : undefined;
      return { cost: o.cost + SELECT_AND_IDENT_COST, handle };
    }
    case '[]':
    case '[?]': {
      const [obj, index] = node.args as [AstNode, AstNode];
      const o = estimate(obj, model, scope);
      const i = estimate(index, model, scope);
      if (!o || !i) return undefined;
      const handle = model && o.handle !== undefined ? model.element(o.handle) : undefined;
      return { cost: o.cost + i.cost + SELECT_AND_IDENT_COST, handle };
    }
    case 'comprehension': {
      const c = node.args as Record<string, unknown>;
      const iterable = c.iterable as AstNode;
      const iter = estimate(iterable, model, scope);
      const n = sizeBound(iterable, iter);
      if (iter === undefined || n === undefined) return undefined;
      const inner = new Map(scope);
      if (typeof c.iterVarName === 'string') {
        let elem: unknown;
        if (model && iter.handle !== undefined) {
          elem = model.key(iter.handle) ?? model.element(iter.handle);
        }
        inner.set(c.iterVarName, elem);
      }
      const once = sum([c.init, c.result].filter(isNode), 0, inner);
      const each = sum([c.step, c.condition].filter(isNode), 0, inner);
      if (once === undefined || each === undefined) return undefined;
      return { cost: iter.cost + once + n * each };
    }
    case 'call':
    case 'rcall': {
      const name = (node.args as [string])[0];
      const operands = childNodes(node);
      const sized =
        REGEX_FUNCTIONS.has(name) ||
        STRING_TRAVERSAL_FUNCTIONS.has(name) ||
        (node.op === 'rcall' && LIST_FUNCTIONS.has(name));
      const ests = operands.map((o) => estimate(o, model, scope));
      if (ests.some((e) => e === undefined)) return undefined;
      const inputs = ests.reduce((t, e) => t + (e?.cost ?? 0), 0);
      if (!sized) return { cost: inputs + 1 };
      const sizes = operands.map((o, i) => sizeBound(o, ests[i]));
      if (sizes.some((v) => v === undefined)) return undefined;
      // callCost reads operands through sizeOf: literals as they are; other operands as a
      // list (the receiver of a list-only function) or a stand-in of the bounded size.
      const listOnly =
        node.op === 'rcall' && LIST_FUNCTIONS.has(name) && !STRING_TRAVERSAL_FUNCTIONS.has(name);
      const asSized = operands.map((o, i): unknown => {
        const it = o.meta.alternate ?? o;
        if (it.op === 'value') return it.args;
        const n = Math.min(sizes[i] ?? 0, 2 ** 32 - 1);
        return listOnly && i === 0 ? new Array<undefined>(n) : { [SIZE]: n };
      });
      const own =
        node.op === 'call'
          ? callCost(name, undefined, asSized, true)
          : callCost(name, asSized[0], asSized.slice(1), true);
      return { cost: inputs + own };
    }
    case 'in':
    case '+': {
      // Without a size model these depend on the input (no estimate, as before).
      if (!model) return undefined;
      const [l, r] = node.args as [AstNode, AstNode];
      const le = estimate(l, model, scope);
      const re = estimate(r, model, scope);
      if (!le || !re) return undefined;
      const inputs = le.cost + re.cost;
      if (node.op === 'in') {
        const n = sizeBound(r, re);
        return n === undefined ? undefined : { cost: inputs + Math.max(1, n) };
      }
      // A concatenation traverses both operands; numbers add for 1.
      const ls = sizeBound(l, le);
      const rs = sizeBound(r, re);
      return { cost: inputs + (ls !== undefined && rs !== undefined ? traversal(ls + rs) : 1) };
    }
    default: {
      const own = nodeCost(node, undefined, new Map());
      return known(sum(childNodes(node), own));
    }
  }
}

// --- environments and compilation ----------------------------------------------------------

const environments = new Map<string, Environment>();

function environmentFor(
  variables: readonly CelVariable[],
  types: readonly CelObjectType[] = []
): Environment {
  const key = JSON.stringify([types, variables]);
  let env = environments.get(key);
  if (!env) {
    env = registerKubernetesLibrary(new Environment({ homogeneousAggregateLiterals: false }));
    for (const t of types) env.registerType({ name: t.name, fields: { ...t.fields } });
    for (const v of variables) {
      if (typeof v.type === 'string') env.registerVariable(v.name, v.type);
      else env.registerVariable({ name: v.name, schema: v.type as Record<string, never> });
    }
    environments.set(key, env);
  }
  return env;
}

/** The first line of a cel-js error, with the column its source frame points at. */
export function celErrorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split('\n');
  const caret = lines.find((l) => /^\s*\^\s*$/u.test(l));
  const frame = lines.find((l) => /^>\s+\d+ \| /u.test(l));
  if (caret !== undefined && frame !== undefined) {
    const prefix = /^>\s+\d+ \| /u.exec(frame)?.[0].length ?? 0;
    const col = caret.indexOf('^') - prefix + 1;
    if (col > 0) return `ERROR: <input>:1:${col}: ${lines[0]}`;
  }
  return lines[0] ?? text;
}

/** Options of compileExpression. */
export interface CompileOptions {
  /** The sizes of the variables' values, for an estimate of what iterates or scans them. */
  readonly sizes?: CelSizeModel;
  /** An estimate above this refuses the expression (default PER_CALL_LIMIT). */
  readonly estimateLimit?: number;
  /**
   * Object types the variables' types may name (`list<T>`, `map<string, T>`, a field of type
   * T), registered in order: a type names only types before it.
   */
  readonly types?: readonly CelObjectType[];
}

/**
 * Compiles `expression` against `variables`. `expectedTypes` lists the result types accepted
 * (`dyn` is always accepted and checked at evaluation); an expression of another type, one that
 * does not parse, or one with undeclared references is an error. An expression whose estimated
 * cost exceeds `PER_CALL_LIMIT` is refused as upstream refuses rules that cannot finish.
 */
export function compileExpression(
  expression: string,
  variables: readonly CelVariable[],
  expectedTypes: readonly string[] = [],
  options: CompileOptions = {}
): CompileResult {
  const env = environmentFor(variables, options.types);
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = env.parse(expression);
  } catch (err) {
    return { error: `compilation failed: ${celErrorMessage(err)}` };
  }
  widenHas(parsed.ast as unknown as AstNode); // cel-js's AST, read through the view above
  const checked = parsed.check();
  if (!checked.valid) {
    // A field an object type does not declare: cel-go's checker says "undefined field".
    const message = celErrorMessage(checked.error).replace(
      /No such key: (.+)$/u,
      "undefined field '$1'"
    );
    return { error: `compilation failed: ${message}` };
  }
  const type = checked.type ?? 'dyn';
  if (expectedTypes.length > 0 && type !== 'dyn' && !expectedTypes.includes(type)) {
    return {
      error: `must evaluate to ${expectedTypes.join(' or ')}, but evaluates to ${type}`,
    };
  }
  const root = parsed.ast as unknown as AstNode; // cel-js's AST, read through the view above
  const estimatedCost = estimate(root, options.sizes)?.cost;
  const estimateLimit = options.estimateLimit ?? PER_CALL_LIMIT;
  if (estimatedCost !== undefined && estimatedCost > estimateLimit) {
    return {
      error: `estimated rule cost exceeds budget by factor of ${(estimatedCost / estimateLimit).toFixed(1)}x (try simplifying the rule)`,
    };
  }
  const state: { tracker: Tracker | undefined } = { tracker: undefined };
  instrument(root, state);
  return {
    compiled: {
      expression,
      type,
      estimatedCost,
      evaluate(activation, budget) {
        const prev = state.tracker;
        const tracker = new Tracker(PER_CALL_LIMIT, budget);
        state.tracker = tracker;
        try {
          const r: unknown = parsed(activation as Record<string, unknown>);
          if (r instanceof Promise) throw new Error('asynchronous CEL functions are not supported');
          if (tracker.error) throw tracker.error;
          return r;
        } catch (err) {
          if (tracker.error) throw tracker.error;
          // The library appends a source frame to its messages; keep the first line.
          if (err instanceof Error && err.message.includes('\n')) {
            throw new Error(err.message.split('\n')[0], { cause: err });
          }
          throw err;
        } finally {
          state.tracker = prev;
        }
      },
    },
  };
}

/**
 * A JSON value as CEL sees it: integral numbers become int (bigint), other numbers double;
 * objects and arrays are copied with the same rule.
 */
export function toCelValue(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(toCelValue);
  if (
    v !== null &&
    typeof v === 'object' &&
    (v.constructor === Object || v.constructor === undefined)
  ) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toCelValue(x);
    return out;
  }
  return v;
}

/** A CEL value back to JSON: int to number (or string beyond 2^53), Map to object. */
export function fromCelValue(v: unknown): unknown {
  if (typeof v === 'bigint')
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(v)
      : v.toString();
  if (Array.isArray(v) || v instanceof Set) return [...v].map(fromCelValue);
  if (v instanceof Map)
    return Object.fromEntries([...v].map(([k, x]) => [String(k), fromCelValue(x)]));
  if (v instanceof Date) return v.toISOString();
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = fromCelValue(x);
    return out;
  }
  return v;
}

/**
 * A map whose entries are computed on first read and kept (upstream's lazy `variables`): a
 * thrown error is kept and thrown again on each read.
 */
export function lazyMap(entries: ReadonlyMap<string, () => unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, compute] of entries) {
    let done = false;
    let value: unknown;
    let error: unknown;
    Object.defineProperty(out, name, {
      enumerable: true,
      get() {
        if (!done) {
          try {
            value = compute();
          } catch (err) {
            error = err;
          }
          done = true;
        }
        if (error !== undefined) throw error;
        return value;
      },
    });
  }
  return out;
}
