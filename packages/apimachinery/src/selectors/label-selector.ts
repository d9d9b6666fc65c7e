/**
 * Label selectors, ported from k8s.io/apimachinery `pkg/labels` (string grammar, lexer,
 * parser and matching) and `LabelSelectorAsSelector` from `apis/meta/v1`.
 *
 * Grammar (whitespace between tokens is ignored):
 *
 *   selector    := '' | requirement (',' requirement)*
 *   requirement := ['!'] KEY
 *                | KEY ('=' | '==' | '!=') [VALUE]
 *                | KEY ('in' | 'notin') '(' [VALUE (',' VALUE)*] ')'
 *                | KEY ('>' | '<') INTEGER
 */
import { isQualifiedName, isValidLabelValue } from '../meta/name-validation.js';
import { SelectorParseError } from './selector-parse-error.js';

/** k8s `selection.Operator` values. */
export type LabelSelectorOperator =
  '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** One condition of a label selector; `values` are sorted and distinct. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelSelectorOperator;
  readonly values: readonly string[];
}

/** The `metav1.LabelSelector` object as found in specs (`spec.selector`). */
export interface LabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: readonly LabelSelectorObjectRequirement[] | null;
}

export interface LabelSelectorObjectRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values?: readonly string[] | null;
}

type Labels = Readonly<Record<string, string>>;

/**
 * A parsed label selector: the AND of its requirements, sorted by key. With no
 * requirements it matches everything; `LabelSelector.nothing()` matches nothing.
 */
export class LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  readonly #matchesNothing: boolean;

  /** Takes requirements already checked by `newLabelRequirement` (or the parser). */
  constructor(requirements: readonly LabelRequirement[] = [], matchesNothing = false) {
    this.requirements = [...requirements].sort((a, b) => compareStrings(a.key, b.key));
    this.#matchesNothing = matchesNothing;
  }

  /** The selector that matches every object (k8s `labels.Everything()`). */
  static everything(): LabelSelector {
    return new LabelSelector();
  }

  /** The selector that matches no object (k8s `labels.Nothing()`). */
  static nothing(): LabelSelector {
    return new LabelSelector([], true);
  }

  /** True when every requirement holds for `labels` (absent labels count as none). */
  matches(labels: Labels | undefined): boolean {
    if (this.#matchesNothing) {
      return false;
    }
    const set = labels ?? {};
    return this.requirements.every((r) => requirementMatches(r, set));
  }

  /** True when the selector has no requirements and so matches everything. */
  empty(): boolean {
    return !this.#matchesNothing && this.requirements.length === 0;
  }

  /** The one value `key` must have, if the selector pins it (k8s `RequiresExactMatch`). */
  requiresExactMatch(key: string): string | undefined {
    for (const r of this.requirements) {
      if (r.key !== key) {
        continue;
      }
      if (
        (r.operator === '=' || r.operator === '==' || r.operator === 'in') &&
        r.values.length === 1
      ) {
        return r.values[0];
      }
    }
    return undefined;
  }

  /** The canonical string form, which `parseLabelSelector` reads back to an equal selector. */
  toString(): string {
    return this.requirements.map(requirementToString).join(',');
  }
}

/**
 * Builds one requirement, checking the key, the number of values for the operator, and
 * each value (k8s `labels.NewRequirement`). Throws `SelectorParseError`.
 */
export function newLabelRequirement(
  key: string,
  operator: LabelSelectorOperator,
  values: readonly string[] = []
): LabelRequirement {
  const requirement: LabelRequirement = { key, operator, values: sortedUnique(values) };
  const problems = requirementProblems(key, operator, values);
  if (problems.length > 0) {
    throw new SelectorParseError(
      requirementToString(requirement),
      `invalid label selector requirement: ${problems.join('; ')}`
    );
  }
  return requirement;
}

/**
 * Parses a label selector string (k8s `labels.Parse`). The empty string selects everything.
 * Throws `SelectorParseError` naming the offending token, key or value.
 */
export function parseLabelSelector(s: string): LabelSelector {
  return new LabelSelector(new Parser(s).parse());
}

/**
 * Converts a `metav1.LabelSelector` object (k8s `LabelSelectorAsSelector`): `null` or
 * `undefined` selects nothing, an object with no labels and no expressions selects
 * everything. Throws `SelectorParseError` naming the offending field.
 */
export function labelSelectorFromLabelSelectorObject(
  sel: LabelSelectorObject | null | undefined
): LabelSelector {
  if (sel === null || sel === undefined) {
    return LabelSelector.nothing();
  }
  const rendered = JSON.stringify(sel);
  function fail(field: string, problems: readonly string[]): never {
    throw new SelectorParseError(
      rendered,
      `invalid label selector: ${field}: ${problems.join('; ')}`
    );
  }
  const requirements: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(sel.matchLabels ?? {})) {
    const problems = requirementProblems(key, '=', [value]);
    if (problems.length > 0) {
      fail(`matchLabels[${JSON.stringify(key)}]`, problems);
    }
    requirements.push({ key, operator: '=', values: [value] });
  }
  for (const [i, expr] of (sel.matchExpressions ?? []).entries()) {
    const operator = objectOperators[expr.operator];
    if (operator === undefined) {
      fail(`matchExpressions[${i}].operator`, [
        `${JSON.stringify(expr.operator)} is not a valid label selector operator`,
      ]);
    }
    const values = expr.values ?? [];
    const problems = requirementProblems(expr.key, operator, values);
    if (problems.length > 0) {
      fail(`matchExpressions[${i}]`, problems);
    }
    requirements.push({ key: expr.key, operator, values: sortedUnique(values) });
  }
  return new LabelSelector(requirements);
}

const objectOperators: Readonly<Record<string, LabelSelectorOperator | undefined>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

// ---- requirements ---------------------------------------------------------------------

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareStrings);
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Go's `strconv.ParseInt(s, 10, 64)`. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) {
    return undefined;
  }
  const n = BigInt(s);
  return n < int64Min || n > int64Max ? undefined : n;
}

function requirementProblems(
  key: string,
  operator: LabelSelectorOperator,
  values: readonly string[]
): string[] {
  const problems: string[] = [];
  const keyErrors = isQualifiedName(key);
  if (keyErrors.length > 0) {
    problems.push(`invalid label key ${JSON.stringify(key)}: ${keyErrors.join('; ')}`);
  }
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) {
        problems.push(
          `for 'in', 'notin' operators, values set can't be empty (key ${JSON.stringify(key)})`
        );
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) {
        problems.push(
          `exact-match compatibility requires one single value (key ${JSON.stringify(key)})`
        );
      }
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) {
        problems.push(
          `values set must be empty for exists and does not exist (key ${JSON.stringify(key)})`
        );
      }
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) {
        problems.push(
          `for 'gt', 'lt' operators, exactly one value is required (key ${JSON.stringify(key)})`
        );
      }
      for (const v of values) {
        if (parseInt64(v) === undefined) {
          problems.push(
            `for 'gt', 'lt' operators, the value must be an integer, got ${JSON.stringify(v)} (key ${JSON.stringify(key)})`
          );
        }
      }
      break;
    default:
      problems.push(`operator ${JSON.stringify(operator satisfies never)} is not recognized`);
  }
  for (const v of values) {
    const valueErrors = isValidLabelValue(v);
    if (valueErrors.length > 0) {
      problems.push(
        `invalid label value ${JSON.stringify(v)} for key ${JSON.stringify(key)}: ${valueErrors.join('; ')}`
      );
    }
  }
  return problems;
}

function requirementMatches(r: LabelRequirement, labels: Labels): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && value !== undefined && r.values.includes(value);
    case 'notin':
    case '!=':
      return !has || value === undefined || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (value === undefined) {
        return false;
      }
      const actual = parseInt64(value);
      const bound = r.values.length === 1 ? parseInt64(r.values[0] ?? '') : undefined;
      if (actual === undefined || bound === undefined) {
        return false;
      }
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

function requirementToString(r: LabelRequirement): string {
  switch (r.operator) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'in':
    case 'notin':
      return `${r.key} ${r.operator} (${r.values.join(',')})`;
    case 'gt':
      return `${r.key}>${r.values.join(',')}`;
    case 'lt':
      return `${r.key}<${r.values.join(',')}`;
    case '=':
    case '==':
    case '!=':
      return `${r.key}${r.operator}${r.values.join(',')}`;
  }
}

// ---- lexer ----------------------------------------------------------------------------

type TokenKind =
  'identifier' | 'in' | 'notin' | '!' | '=' | '==' | '!=' | '>' | '<' | '(' | ')' | ',' | 'end';

interface Token {
  readonly kind: TokenKind;
  readonly literal: string;
  /** Offset of the token's first character in the selector string. */
  readonly pos: number;
}

const specialSymbols: ReadonlyMap<string, TokenKind> = new Map<string, TokenKind>([
  ['!', '!'],
  ['!=', '!='],
  ['=', '='],
  ['==', '=='],
  ['>', '>'],
  ['<', '<'],
  ['(', '('],
  [')', ')'],
  [',', ','],
]);

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return '=!(),><'.includes(ch);
}

/** k8s `labels.Lexer`: longest-match symbols, identifiers up to whitespace or a symbol. */
function tokenize(s: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isWhitespace(s.charAt(pos))) {
      pos++;
    }
    if (pos >= s.length) {
      tokens.push({ kind: 'end', literal: '', pos });
      return tokens;
    }
    const start = pos;
    const pair = specialSymbols.get(s.slice(pos, pos + 2));
    const single = specialSymbols.get(s.charAt(pos));
    if (pair !== undefined) {
      pos += 2;
      tokens.push({ kind: pair, literal: s.slice(start, pos), pos: start });
      continue;
    }
    if (single !== undefined) {
      pos += 1;
      tokens.push({ kind: single, literal: s.slice(start, pos), pos: start });
      continue;
    }
    while (pos < s.length && !isWhitespace(s.charAt(pos)) && !isSpecialSymbol(s.charAt(pos))) {
      pos++;
    }
    const literal = s.slice(start, pos);
    const kind: TokenKind = literal === 'in' ? 'in' : literal === 'notin' ? 'notin' : 'identifier';
    tokens.push({ kind, literal, pos: start });
  }
}

// ---- parser ---------------------------------------------------------------------------

/** k8s `ParserContext`: in `values` mode the keywords `in` and `notin` are identifiers. */
type Mode = 'key-and-operator' | 'values';

const binaryOperators = "'=', '==', '!=', 'in', 'notin', '>' or '<'";

class Parser {
  readonly #input: string;
  readonly #tokens: Token[];
  #position = 0;

  constructor(input: string) {
    this.#input = input;
    this.#tokens = tokenize(input);
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const tok = this.#lookahead('values');
      switch (tok.kind) {
        case 'identifier':
        case '!': {
          requirements.push(this.#parseRequirement());
          const next = this.#consume('values');
          if (next.kind === 'end') {
            return requirements;
          }
          if (next.kind !== ',') {
            this.#fail(next, "',' or end of string");
          }
          const after = this.#lookahead('values');
          if (after.kind !== 'identifier' && after.kind !== '!') {
            this.#fail(after, "'!' or a label key after ','");
          }
          break;
        }
        case 'end':
          return requirements;
        default:
          this.#fail(tok, "'!', a label key, or end of string");
      }
    }
  }

  #parseRequirement(): LabelRequirement {
    let tok = this.#consume('values');
    let negated = false;
    if (tok.kind === '!') {
      negated = true;
      tok = this.#consume('values');
    }
    if (tok.kind !== 'identifier') {
      this.#fail(tok, 'a label key');
    }
    const key = tok.literal;
    const next = this.#lookahead('values');
    if (negated || next.kind === 'end' || next.kind === ',') {
      return this.#requirement(key, negated ? '!' : 'exists', [], tok);
    }
    const opTok = this.#consume('key-and-operator');
    let operator: LabelSelectorOperator;
    switch (opTok.kind) {
      case '=':
      case '==':
      case '!=':
      case 'in':
      case 'notin':
        operator = opTok.kind;
        break;
      case '>':
        operator = 'gt';
        break;
      case '<':
        operator = 'lt';
        break;
      default:
        return this.#fail(opTok, binaryOperators);
    }
    const values =
      operator === 'in' || operator === 'notin' ? this.#parseValues() : this.#parseExactValue();
    return this.#requirement(key, operator, values, tok);
  }

  /** `'(' [VALUE (',' VALUE)*] ')'`; empty entries (`()`, `(a,)`, `(,a)`) are empty values. */
  #parseValues(): string[] {
    const open = this.#consume('values');
    if (open.kind !== '(') {
      this.#fail(open, "'('");
    }
    const values = new Set<string>();
    let expectValue = true;
    for (;;) {
      const tok = this.#consume('values');
      switch (tok.kind) {
        case 'identifier':
          if (!expectValue) {
            this.#fail(tok, "',' or ')'");
          }
          values.add(tok.literal);
          expectValue = false;
          break;
        case ',':
          if (expectValue) {
            values.add('');
          }
          expectValue = true;
          break;
        case ')':
          if (expectValue) {
            values.add('');
          }
          return [...values];
        default:
          this.#fail(tok, expectValue ? "a value, ',' or ')'" : "',' or ')'");
      }
    }
  }

  /** A single value after `=`, `==`, `!=`, `>` or `<`; none at all means the empty value. */
  #parseExactValue(): string[] {
    const next = this.#lookahead('values');
    if (next.kind === 'end' || next.kind === ',') {
      return [''];
    }
    const tok = this.#consume('values');
    if (tok.kind !== 'identifier') {
      this.#fail(tok, 'a value');
    }
    return [tok.literal];
  }

  #requirement(
    key: string,
    operator: LabelSelectorOperator,
    values: readonly string[],
    keyTok: Token
  ): LabelRequirement {
    const problems = requirementProblems(key, operator, values);
    if (problems.length > 0) {
      throw new SelectorParseError(
        this.#input,
        `invalid label selector ${JSON.stringify(this.#input)} at position ${keyTok.pos}: ${problems.join('; ')}`
      );
    }
    return { key, operator, values: sortedUnique(values) };
  }

  #lookahead(mode: Mode): Token {
    return this.#token(this.#position, mode);
  }

  #consume(mode: Mode): Token {
    const tok = this.#token(this.#position, mode);
    if (this.#position < this.#tokens.length - 1) {
      this.#position++;
    }
    return tok;
  }

  #token(index: number, mode: Mode): Token {
    const tok = this.#tokens[index] ?? this.#tokens[this.#tokens.length - 1];
    if (tok === undefined) {
      return { kind: 'end', literal: '', pos: this.#input.length };
    }
    if (mode === 'values' && (tok.kind === 'in' || tok.kind === 'notin')) {
      return { ...tok, kind: 'identifier' };
    }
    return tok;
  }

  #fail(tok: Token, expected: string): never {
    const found = tok.kind === 'end' ? 'end of string' : `'${tok.literal}'`;
    throw new SelectorParseError(
      this.#input,
      `unable to parse label selector ${JSON.stringify(this.#input)}: found ${found} at position ${tok.pos}, expected: ${expected}`
    );
  }
}
