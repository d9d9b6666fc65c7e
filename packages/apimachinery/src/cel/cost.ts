// Cost accounting of CEL evaluation (k8s.io/apiserver/pkg/cel: PerCallLimit, RuntimeCELCostBudget;
// cel-go interpreter/runtimecost.go): a counter of cost units charged per evaluated node, halting
// the evaluation with an error once a limit is passed.

/** Upstream's per-expression runtime limit (apiserver/pkg/cel.PerCallLimit). */
export const PER_CALL_LIMIT = 1_000_000;
/** Upstream's budget shared by every expression of one ValidatingAdmissionPolicy admission. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** Worst-case estimate above which an expression is refused at create (StaticEstimatedCostLimit). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;

/** A comparison costs 1 (spec "Expression cost"). */
export const COMPARISON_COST = 1;
/** A list literal has a base cost of 40 (spec "Expression cost"). */
export const LIST_CREATE_BASE_COST = 40;
/** A map literal (cel-go common.MapCreateBaseCost). */
export const MAP_CREATE_BASE_COST = 30;
/** An identifier or field selection (cel-go common.SelectAndIdentCost). */
export const SELECT_AND_IDENT_COST = 1;
/** Per character of a string traversed (cel-go common.StringTraversalCostFactor). */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** Per character of a regex (cel-go common.RegexStringLengthCostFactor). */
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

/** The evaluation ran past a cost limit; the evaluation stopped. */
export class CelCostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CelCostError';
  }
}

/**
 * A budget shared by several evaluations (a policy's RuntimeCELCostBudget across one admission).
 * `charge` throws CelCostError once `used` passes `limit`.
 */
export class CostBudget {
  used = 0;
  constructor(
    readonly limit: number,
    readonly message: string
  ) {}

  get exceeded(): boolean {
    return this.used > this.limit;
  }

  charge(units: number): void {
    this.used += units;
    if (this.used > this.limit) throw new CelCostError(this.message);
  }
}

/** The message cel-go gives when one evaluation passes its cost limit. */
export const PER_CALL_LIMIT_MESSAGE = 'operation cancelled: actual cost limit exceeded';
/** Upstream's message when a policy runs out of its shared budget. */
export const RUNTIME_BUDGET_MESSAGE =
  'validation failed due to running out of cost budget, no further validation rules will be run';
