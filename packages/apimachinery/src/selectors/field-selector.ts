/**
 * Field selectors, ported from k8s.io/apimachinery `pkg/fields`.
 *
 * Grammar: terms separated by ',', each `FIELD=VALUE`, `FIELD==VALUE` or `FIELD!=VALUE`. The
 * field runs up to the first operator and is taken as is. In values, `\,`, `\=` and `\\`
 * stand for ',', '=' and '\'; any other backslash sequence, and a bare ',' or '=', is an
 * error. The empty string selects everything.
 */
import { SelectorParseError } from './selector-parse-error.js';

export type FieldSelectorOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldSelectorOperator;
  /** The unescaped value. */
  readonly value: string;
}

/** Reads one field of the object under test; `undefined` when it is absent. */
export type FieldGetter = (field: string) => string | undefined;

/** A parsed field selector: the AND of its requirements, sorted as k8s sorts them. */
export class FieldSelector {
  readonly requirements: readonly FieldRequirement[];

  constructor(requirements: readonly FieldRequirement[] = []) {
    this.requirements = [...requirements];
  }

  /** The selector that matches every object (k8s `fields.Everything()`). */
  static everything(): FieldSelector {
    return new FieldSelector();
  }

  /** True when every requirement holds; an absent field compares as the empty string. */
  matches(get: FieldGetter): boolean {
    return this.requirements.every((r) => {
      const actual = get(r.field) ?? '';
      return r.operator === '=' ? actual === r.value : actual !== r.value;
    });
  }

  empty(): boolean {
    return this.requirements.length === 0;
  }

  /** The value `field` must equal if the selector has `field=value` (k8s `RequiresExactMatch`). */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  /** The distinct fields the selector reads, in order of first use. */
  fields(): string[] {
    return [...new Set(this.requirements.map((r) => r.field))];
  }

  /** The canonical string form, values escaped; `parseFieldSelector` reads it back. */
  toString(): string {
    return this.requirements
      .map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`)
      .join(',');
  }
}

/** k8s `fields.EscapeValue`: escapes '\', ',' and '=' so a value can be written in a selector. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (ch) => `\\${ch}`);
}

/**
 * Parses a field selector string (k8s `fields.ParseSelector`). Throws `SelectorParseError`
 * naming the term that does not parse.
 */
export function parseFieldSelector(s: string): FieldSelector {
  const terms = splitTerms(s).sort();
  const requirements: FieldRequirement[] = [];
  for (const term of terms) {
    if (term === '') {
      continue;
    }
    const split = splitTerm(term);
    if (split === undefined) {
      throw new SelectorParseError(
        s,
        `invalid field selector ${JSON.stringify(s)}: can't understand ${JSON.stringify(term)}: expected FIELD=VALUE, FIELD==VALUE or FIELD!=VALUE`
      );
    }
    const { field, operator, rawValue } = split;
    if (field === '') {
      throw new SelectorParseError(
        s,
        `invalid field selector ${JSON.stringify(s)}: term ${JSON.stringify(term)} has an empty field name`
      );
    }
    requirements.push({ field, operator, value: unescapeValue(s, term, rawValue) });
  }
  return new FieldSelector(requirements);
}

/** Splits at ',' not preceded by a backslash; the backslashes stay in the terms. */
function splitTerms(s: string): string[] {
  if (s === '') {
    return [];
  }
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charAt(i);
    if (inSlash) {
      inSlash = false;
    } else if (ch === '\\') {
      inSlash = true;
    } else if (ch === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

/** Splits at the first operator; `==` is tried before `=` so no '=' is left on the value. */
function splitTerm(
  term: string
): { field: string; operator: FieldSelectorOperator; rawValue: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const rest = term.slice(i);
    if (rest.startsWith('!=')) {
      return { field: term.slice(0, i), operator: '!=', rawValue: term.slice(i + 2) };
    }
    if (rest.startsWith('==')) {
      return { field: term.slice(0, i), operator: '=', rawValue: term.slice(i + 2) };
    }
    if (rest.startsWith('=')) {
      return { field: term.slice(0, i), operator: '=', rawValue: term.slice(i + 1) };
    }
  }
  return undefined;
}

/** k8s `fields.UnescapeValue`. */
function unescapeValue(selector: string, term: string, raw: string): string {
  const fail = (what: string): never => {
    throw new SelectorParseError(
      selector,
      `invalid field selector ${JSON.stringify(selector)}: ${what} in the value of ${JSON.stringify(term)}`
    );
  };
  let out = '';
  let inSlash = false;
  for (const ch of raw) {
    if (inSlash) {
      if (ch !== '\\' && ch !== ',' && ch !== '=') {
        fail(`invalid escape sequence '\\${ch}' (only '\\\\', '\\,' and '\\=' are allowed)`);
      }
      out += ch;
      inSlash = false;
    } else if (ch === '\\') {
      inSlash = true;
    } else if (ch === ',' || ch === '=') {
      fail(`unescaped character '${ch}' (write '\\${ch}')`);
    } else {
      out += ch;
    }
  }
  if (inSlash) {
    fail("invalid escape sequence '\\' at the end");
  }
  return out;
}
