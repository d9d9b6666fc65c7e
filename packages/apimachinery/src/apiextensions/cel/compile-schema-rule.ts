// Compiling one x-kubernetes-validations rule of a schema node (apiextensions-apiserver
// pkg/apiserver/schema/cel/compilation.go Compile): the rule is type-checked with `self` (and
// `oldSelf`) of the node's CEL type and must be a bool; a messageExpression must be a string;
// both are estimated with the schema's sizes. What runs is the same expression over `dyn`
// variables holding values converted by toCelValueForSchema. Results are kept per schema node.
import { compileExpression } from '../../cel/index.js';
import type { CelObjectType, CelVariable, CompiledExpression } from '../../cel/index.js';
import type { JSONSchemaProps, ValidationRule } from '../types.js';

import { celTypeOf } from './cel-type-of.js';
import { schemaSizeModel } from './schema-sizes.js';

export interface CompiledSchemaRule {
  /** The rule's compile error (upstream's detail); the rule does not run. */
  readonly ruleError?: string;
  readonly rule?: CompiledExpression;
  /** The rule's estimated worst-case cost for one evaluation (undefined: not estimable). */
  readonly ruleCost?: number;
  readonly messageExpressionError?: string;
  readonly messageExpression?: CompiledExpression;
  readonly messageExpressionCost?: number;
  /** The rule reads `oldSelf`: it is a transition rule. */
  readonly usesOldSelf: boolean;
}

/** Whether `expression` refers to `oldSelf` (outside string literals). */
export function usesOldSelf(expression: string): boolean {
  const code = expression.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/gu, '""');
  return /(^|[^.\w])oldSelf\b/u.test(code);
}

const cache = new WeakMap<JSONSchemaProps, Map<string, CompiledSchemaRule>>();

/** An equality of two object types: the engine has no such overload; upstream allows it. */
const OBJECT_EQUALITY = /no such overload: (\S+) [!=]= (\S+)/u;

/** `self` and `oldSelf` of the node's CEL type, with the object types they name. */
function typedVariables(
  schema: JSONSchemaProps,
  optionalOldSelf: boolean
): { variables: CelVariable[]; types: readonly CelObjectType[] } {
  const t = celTypeOf(schema);
  return {
    variables: [
      { name: 'self', type: t.type },
      { name: 'oldSelf', type: optionalOldSelf ? `optional<${t.type}>` : t.type },
    ],
    types: t.objectTypes,
  };
}

function dynVariables(optionalOldSelf: boolean): CelVariable[] {
  return [
    { name: 'self', type: 'dyn' },
    { name: 'oldSelf', type: optionalOldSelf ? 'optional<dyn>' : 'dyn' },
  ];
}

/** Compiles `expression` typed, then over dyn for running and the estimate. */
function compileBoth(
  schema: JSONSchemaProps,
  expression: string,
  optionalOldSelf: boolean,
  resultType: string
): { error?: string; compiled?: CompiledExpression; type?: string } {
  const { variables, types } = typedVariables(schema, optionalOldSelf);
  const typed = compileExpression(expression, variables, [], {
    types,
    estimateLimit: Number.POSITIVE_INFINITY,
  });
  const run = compileExpression(expression, dynVariables(optionalOldSelf), [], {
    sizes: schemaSizeModel(schema),
    estimateLimit: Number.POSITIVE_INFINITY,
  });
  if (typed.error !== undefined) {
    if (!(OBJECT_EQUALITY.test(typed.error) && run.compiled)) return { error: typed.error };
  }
  if (!run.compiled) return { error: run.error };
  const type = typed.compiled?.type ?? run.compiled.type;
  if (type !== resultType && type !== 'dyn') return { compiled: run.compiled, type };
  return { compiled: run.compiled, type: resultType };
}

/** Compiles `rule` of the node `schema`; kept per node and rule. */
export function compileSchemaRule(
  schema: JSONSchemaProps,
  rule: ValidationRule
): CompiledSchemaRule {
  let perNode = cache.get(schema);
  if (!perNode) {
    perNode = new Map();
    cache.set(schema, perNode);
  }
  const key = JSON.stringify([
    rule.rule,
    rule.messageExpression ?? '',
    rule.optionalOldSelf === true,
  ]);
  const hit = perNode.get(key);
  if (hit) return hit;
  const optional = rule.optionalOldSelf === true;
  const out: {
    -readonly [K in keyof CompiledSchemaRule]: CompiledSchemaRule[K];
  } = { usesOldSelf: usesOldSelf(rule.rule ?? '') };
  const r = compileBoth(schema, rule.rule ?? '', optional, 'bool');
  if (r.error !== undefined) out.ruleError = r.error;
  else if (r.type !== 'bool') out.ruleError = 'cel expression must evaluate to a bool';
  else {
    out.rule = r.compiled;
    out.ruleCost = r.compiled?.estimatedCost;
  }
  const msg = rule.messageExpression;
  if (msg !== undefined && msg.trim().length > 0) {
    const m = compileBoth(schema, msg, optional, 'string');
    if (m.error !== undefined) {
      out.messageExpressionError = m.error.replace(
        /^compilation failed: /u,
        'messageExpression compilation failed: '
      );
    } else if (m.type !== 'string') {
      out.messageExpressionError = 'messageExpression must evaluate to a string';
    } else {
      out.messageExpression = m.compiled;
      out.messageExpressionCost = m.compiled?.estimatedCost;
    }
  }
  perNode.set(key, out);
  return out;
}
