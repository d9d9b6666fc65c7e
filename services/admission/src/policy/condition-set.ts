// A compiled list of matchConditions (k8s.io/apiserver/pkg/admission/plugin/webhook/
// matchconditions/matcher.go): every condition true matches; any false does not match (and
// wins over errors); otherwise an evaluation error is reported for the failurePolicy to judge.
import type { CelVariable, CompiledExpression, CostBudget } from '@orch/apimachinery/cel';
import { compileExpression } from '@orch/apimachinery/cel';
import type { FieldError } from '@orch/apimachinery/errors';
import { fieldInvalid } from '@orch/apimachinery/errors';

export interface ConditionResult {
  matches: boolean;
  /** The condition that evaluated to false. */
  failedCondition?: string;
  /** Evaluation errors (no condition was false). */
  error?: string;
}

interface Condition {
  readonly name: string;
  readonly expression: string;
  readonly compiled?: CompiledExpression;
  readonly compileError?: string;
}

export class ConditionSet {
  readonly #conditions: readonly Condition[];

  private constructor(conditions: readonly Condition[]) {
    this.#conditions = conditions;
  }

  /** Compiles `conditions`; compile errors are field errors under `path`. */
  static compile(
    conditions: readonly { name: string; expression: string }[],
    variables: readonly CelVariable[],
    path: string
  ): { set: ConditionSet; errors: FieldError[] } {
    const errors: FieldError[] = [];
    const compiled = conditions.map((c, i): Condition => {
      const r = compileExpression(c.expression, variables, ['bool']);
      if (r.error !== undefined) {
        errors.push(fieldInvalid(`${path}[${i}].expression`, c.expression, r.error));
        return { name: c.name, expression: c.expression, compileError: r.error };
      }
      return { name: c.name, expression: c.expression, compiled: r.compiled };
    });
    return { set: new ConditionSet(compiled), errors };
  }

  get size(): number {
    return this.#conditions.length;
  }

  evaluate(activation: Readonly<Record<string, unknown>>, budget?: CostBudget): ConditionResult {
    const errors: string[] = [];
    for (const c of this.#conditions) {
      if (!c.compiled) {
        errors.push(`compilation error: ${c.compileError ?? ''}`);
        continue;
      }
      let v: unknown;
      try {
        v = c.compiled.evaluate(activation, budget);
      } catch (err) {
        errors.push(
          `expression '${c.expression}' resulted in error: ${err instanceof Error ? err.message : String(err)}`
        );
        continue;
      }
      if (v === false) return { matches: false, failedCondition: c.name };
      if (v !== true) errors.push(`expression '${c.expression}' did not evaluate to bool`);
    }
    if (errors.length > 0) return { matches: false, error: errors.join(', ') };
    return { matches: true };
  }
}
