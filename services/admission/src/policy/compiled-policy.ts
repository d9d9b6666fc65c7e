// A ValidatingAdmissionPolicy and its bindings compiled once per uid and resourceVersion
// (k8s.io/apiserver/pkg/admission/plugin/policy/validating: compile.go, the policy source's
// cache): match criteria, variables, validations with messages, audit annotations and
// matchConditions. Compile errors are kept on the expression and surface when it is evaluated,
// where the failurePolicy judges them, as upstream does for objects stored before a check.
import type { CompiledExpression } from '@orch/apimachinery/cel';
import { compileExpression, policyVariables } from '@orch/apimachinery/cel';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';

import type { MatchCriteria, NamedRuleWithOperations } from '../matching/index.js';
import { compileSelector } from '../matching/index.js';

import { ConditionSet } from './condition-set.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface Expr {
  readonly expression: string;
  readonly compiled?: CompiledExpression;
  readonly error?: string;
}

export interface CompiledValidation {
  readonly index: number;
  readonly expr: Expr;
  readonly message: string;
  readonly messageExpression?: Expr;
  readonly reason: string;
}

export interface CompiledPolicy {
  readonly name: string;
  readonly failurePolicy: 'Fail' | 'Ignore';
  /** undefined: the policy has no matchConstraints and matches nothing. */
  readonly criteria: MatchCriteria | undefined;
  readonly paramKind: { apiVersion: string; kind: string } | undefined;
  readonly variables: readonly { name: string; expr: Expr }[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly { key: string; expr: Expr }[];
  readonly matchConditions: ConditionSet;
}

export interface CompiledBinding {
  readonly name: string;
  readonly policyName: string;
  /** undefined: every request the policy matches. */
  readonly criteria: MatchCriteria | undefined;
  readonly paramRef:
    | {
        name: string;
        namespace: string;
        selector: LabelSelectorObject | undefined;
        parameterNotFoundAction: string;
      }
    | undefined;
  readonly validationActions: readonly string[];
}

function criteriaOf(m: Obj): MatchCriteria {
  return {
    namespaceSelector: compileSelector(m.namespaceSelector as LabelSelectorObject | undefined),
    objectSelector: compileSelector(m.objectSelector as LabelSelectorObject | undefined),
    rules: list(m.resourceRules) as NamedRuleWithOperations[],
    excludeRules: list(m.excludeResourceRules) as NamedRuleWithOperations[],
    emptyRulesMatchAll: true,
    matchPolicy: str(m.matchPolicy) || 'Equivalent',
  };
}

function expr(expression: string, hasParams: boolean, expected: readonly string[]): Expr {
  const r = compileExpression(expression, policyVariables(hasParams, true), expected);
  return r.error !== undefined
    ? { expression, error: r.error }
    : { expression, compiled: r.compiled };
}

export function compilePolicy(policy: Obj): CompiledPolicy {
  const meta = obj(policy.metadata);
  const spec = obj(policy.spec);
  const pk =
    spec.paramKind === undefined || spec.paramKind === null ? undefined : obj(spec.paramKind);
  const hasParams = pk !== undefined;
  const conditions = list(spec.matchConditions).map((c) => ({
    name: str(c.name),
    expression: str(c.expression),
  }));
  return {
    name: str(meta.name),
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    criteria:
      spec.matchConstraints === undefined || spec.matchConstraints === null
        ? undefined
        : criteriaOf(obj(spec.matchConstraints)),
    paramKind: pk && { apiVersion: str(pk.apiVersion), kind: str(pk.kind) },
    variables: list(spec.variables).map((v) => ({
      name: str(v.name),
      expr: expr(str(v.expression), hasParams, []),
    })),
    validations: list(spec.validations).map((v, index) => ({
      index,
      expr: expr(str(v.expression), hasParams, ['bool']),
      message: str(v.message),
      messageExpression:
        str(v.messageExpression) === ''
          ? undefined
          : expr(str(v.messageExpression), hasParams, ['string']),
      reason: str(v.reason) || 'Invalid',
    })),
    auditAnnotations: list(spec.auditAnnotations).map((a) => ({
      key: str(a.key),
      expr: expr(str(a.valueExpression), hasParams, ['string', 'null_type']),
    })),
    matchConditions: ConditionSet.compile(
      conditions,
      policyVariables(hasParams, false),
      'spec.matchConditions'
    ).set,
  };
}

export function compileBinding(binding: Obj): CompiledBinding {
  const spec = obj(binding.spec);
  const ref =
    spec.paramRef === undefined || spec.paramRef === null ? undefined : obj(spec.paramRef);
  return {
    name: str(obj(binding.metadata).name),
    policyName: str(spec.policyName),
    criteria:
      spec.matchResources === undefined || spec.matchResources === null
        ? undefined
        : criteriaOf(obj(spec.matchResources)),
    paramRef: ref && {
      name: str(ref.name),
      namespace: str(ref.namespace),
      selector:
        ref.selector === undefined || ref.selector === null
          ? undefined
          : (ref.selector as LabelSelectorObject),
      parameterNotFoundAction: str(ref.parameterNotFoundAction) || 'Allow',
    },
    validationActions: Array.isArray(spec.validationActions)
      ? spec.validationActions.filter((a): a is string => typeof a === 'string')
      : [],
  };
}

/** Compiles each object once per uid and resourceVersion. */
export class CompileCache<T> {
  readonly #entries = new Map<string, { rv: string; value: T }>();

  constructor(readonly compile: (o: Obj) => T) {}

  get(o: Obj): T {
    const meta = obj(o.metadata);
    const uid = str(meta.uid) || `${str(meta.namespace)}/${str(meta.name)}`;
    const rv = str(meta.resourceVersion);
    const hit = this.#entries.get(uid);
    if (hit && hit.rv === rv) return hit.value;
    const value = this.compile(o);
    this.#entries.set(uid, { rv, value });
    return value;
  }

  /** Forgets the objects no longer listed. */
  retain(objects: readonly Obj[]): void {
    if (this.#entries.size <= objects.length) return;
    const keep = new Set(
      objects.map((o) => {
        const meta = obj(o.metadata);
        return str(meta.uid) || `${str(meta.namespace)}/${str(meta.name)}`;
      })
    );
    for (const k of this.#entries.keys()) if (!keep.has(k)) this.#entries.delete(k);
  }
}
