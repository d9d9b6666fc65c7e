// The fieldPath of a validation rule (apiextensions-apiserver pkg/apiserver/schema/cel/
// validation.go ValidFieldPath): a JSONPath of `.name` and `['name']` steps from the rule's
// node that must name a property or a map key the schema allows. Returns the steps, each a
// property (rendered `.name`) or a map key (rendered `[key]`), or an error.
import type { JSONSchemaProps } from '../types.js';

export interface RuleFieldPathStep {
  readonly name: string;
  readonly key: boolean;
}

export type RuleFieldPath =
  | { readonly steps: readonly RuleFieldPathStep[]; readonly error?: undefined }
  | { readonly steps?: undefined; readonly error: string };

function unescapeQuoted(s: string): string {
  return s.replace(/\\(.)/gu, (_m, c: string) => {
    switch (c) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      default:
        return c;
    }
  });
}

/** Parses and checks `jsonPath` against `schema` (the node the rule is on). */
export function parseRuleFieldPath(jsonPath: string, schema: JSONSchemaProps): RuleFieldPath {
  const steps: RuleFieldPathStep[] = [];
  let s: JSONSchemaProps | undefined = schema;
  let i = 0;
  const step = (name: string): string | undefined => {
    if (!s) return 'does not refer to a valid field';
    const prop: JSONSchemaProps | undefined = s.properties?.[name];
    if (prop) {
      steps.push({ name, key: false });
      s = prop;
      return undefined;
    }
    const ap = s.additionalProperties;
    if (ap !== undefined && ap !== false) {
      steps.push({ name, key: true });
      s = typeof ap === 'boolean' ? undefined : ap;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  if (jsonPath.length === 0) return { error: 'unexpected end of JSON path' };
  while (i < jsonPath.length) {
    const c = jsonPath[i];
    if (c === '.') {
      const m = /^[^.[\]]+/u.exec(jsonPath.slice(i + 1));
      if (!m) return { error: 'unexpected end of JSON path' };
      const err = step(m[0]);
      if (err) return { error: err };
      i += 1 + m[0].length;
    } else if (c === '[') {
      const m = /^\[\s*'((?:[^'\\]|\\.)*)'\s*\]/u.exec(jsonPath.slice(i));
      if (!m) {
        if (/^\[\s*\d/u.test(jsonPath.slice(i))) return { error: 'array notation is not allowed' };
        return { error: `expected single quoted string but got ${jsonPath.slice(i + 1)}` };
      }
      const err = step(unescapeQuoted(m[1] ?? ''));
      if (err) return { error: err };
      i += m[0].length;
    } else {
      return { error: `expected [ or . but got: ${jsonPath.slice(i)}` };
    }
  }
  return { steps };
}
